// A file browser over the runtime's file API (aotui.fs): it may read what its aoapp.json
// grants — its own data folder (fs:read:data, relative to the app's folder); anything else,
// a symlink out of it included, is refused with E_PERMISSION.
let cwd = `${aotui.fs.appDir}/data`;
let preview = "";
let error = "";

document.body.setAttribute("view", "Browser");

function render() {
  let entries = [];
  error = "";
  try {
    entries = aotui.fs.list(cwd);
  } catch (e) {
    error = e.message;
  }
  document.body.innerHTML = `
    <h1 entity="path:current_dir"></h1>
    <p class="error"></p>
    <ul list="file[]:file_list"></ul>
    <pre class="preview"></pre>
    <button operation="change_dir" args='{"path": "string"}'>Go to</button>
    <button operation="enter" args='{"file": "file"}'>Enter directory</button>
    <button operation="read_file" args='{"file": "file"}'>Preview</button>`;
  document.querySelector("h1").textContent = cwd;
  document.querySelector(".error").textContent = error;
  document.querySelector(".preview").textContent = preview;
  const list = document.querySelector("ul");
  for (const entry of entries.slice(0, 200)) {
    const li = document.createElement("li");
    li.setAttribute("key", `${cwd}/${entry.name}`);
    li.setAttribute("data-value", JSON.stringify({ path: `${cwd.replace(/\/$/, "")}/${entry.name}`, dir: entry.dir }));
    li.textContent = entry.dir ? `${entry.name}/` : `${entry.name} (${entry.size} bytes)`;
    list.appendChild(li);
  }
}

document.body.addEventListener("aotui:operation", (event) => {
  const { operation, args } = event.detail;
  switch (operation) {
    case "change_dir":
      aotui.fs.list(args.path); // throws E_PERMISSION outside the granted folders
      cwd = args.path;
      preview = "";
      break;
    case "enter":
      if (!args.file.dir) throw new Error(`${args.file.path} is not a directory`);
      cwd = args.file.path;
      preview = "";
      break;
    case "read_file":
      preview = aotui.fs.readText(args.file.path).slice(0, 2000);
      break;
  }
  render();
});

aotui.onSerialize(() => ({ cwd, preview }));
aotui.onRestore((data) => { cwd = data.cwd; preview = data.preview; render(); });

render();
