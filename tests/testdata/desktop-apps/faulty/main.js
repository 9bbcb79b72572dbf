// A test app whose operations fail in every way an app can: a throwing handler, a handler
// that never finishes (E_TIMEOUT), forbidden fetch and file reads (E_PERMISSION), and a big list.
document.body.setAttribute("view", "Faulty");
document.body.innerHTML = `
  <p class="count">0</p>
  <ul list="row[]:rows"></ul>
  <button operation="explode">Explode</button>
  <button operation="hang">Hang</button>
  <button operation="die">Die</button>
  <button operation="fetch_forbidden" args='{"url": "string"}'>Fetch</button>
  <button operation="read_forbidden" args='{"path": "string"}'>Read</button>
  <button operation="xhr_forbidden" args='{"url": "string"}'>XHR</button>
  <button operation="ws_forbidden" args='{"url": "string"}'>WebSocket</button>
  <button operation="bump" args='{"by": "integer", "loud": "boolean?"}'>Bump</button>
  <button operation="fill" args='{"n": "integer"}'>Fill</button>`;
let count = 0;
document.body.addEventListener("aotui:operation", (event) => {
  const { operation, args } = event.detail;
  switch (operation) {
    case "explode":
      throw new Error("the handler blew up on purpose");
    case "die":
      process.exit(3);
      return;
    case "hang":
      event.detail.waitUntil(new Promise(() => {}));
      return;
    case "fetch_forbidden":
      event.detail.waitUntil(fetch(args.url));
      return;
    case "xhr_forbidden": {
      const xhr = new XMLHttpRequest();
      xhr.open("GET", args.url);
      xhr.send();
      return;
    }
    case "ws_forbidden":
      new WebSocket(args.url);
      return;
    case "read_forbidden":
      aotui.fs.readText(args.path);
      return;
    case "bump":
      count += args.by * (args.loud ? 10 : 1);
      document.querySelector(".count").textContent = String(count);
      return;
    case "fill": {
      const ul = document.querySelector("ul");
      ul.innerHTML = "";
      for (let i = 0; i < args.n; i++) {
        const li = document.createElement("li");
        li.setAttribute("key", "r" + i);
        li.setAttribute("data-value", JSON.stringify({ i }));
        li.textContent = "row " + i;
        ul.appendChild(li);
      }
      return;
    }
  }
});
