// A todo list: one view, a list of items with data values, add/complete/delete operations
// and an entity title. Plain DOM; the runtime renders it to Markdown.
let todos = [
  { id: "t1", text: "Buy milk", done: false },
  { id: "t2", text: "Write the report", done: false },
  { id: "t3", text: "Call the plumber", done: false },
];
let nextId = 4;

document.body.setAttribute("view", "TodoList");
document.body.innerHTML = `
  <h1 entity="title:list_title">My todos</h1>
  <p class="summary"></p>
  <ul list="todo[]:todo_list" title="Todos"></ul>
  <button operation="add_todo" args='{"text": "string"}'>Add</button>
  <button operation="complete_todo" args='{"item": "todo"}'>Complete</button>
  <button operation="delete_todo" args='{"item": "todo"}'>Delete</button>
  <button operation="rename_list" args='{"title": "string"}'>Rename</button>`;

const list = document.querySelector("ul");
const summary = document.querySelector(".summary");

function render() {
  list.innerHTML = "";
  for (const todo of todos) {
    const li = document.createElement("li");
    li.setAttribute("key", todo.id);
    li.setAttribute("data-value", JSON.stringify({ id: todo.id }));
    li.textContent = todo.done ? `${todo.text} (done)` : todo.text;
    list.appendChild(li);
  }
  const open = todos.filter((t) => !t.done).length;
  summary.textContent = `${open} open, ${todos.length - open} done`;
}

document.body.addEventListener("aotui:operation", (event) => {
  const { operation, args } = event.detail;
  switch (operation) {
    case "add_todo":
      todos.push({ id: `t${nextId++}`, text: args.text, done: false });
      break;
    case "complete_todo": {
      const todo = todos.find((t) => t.id === args.item.id);
      if (!todo) throw new Error(`no todo ${args.item.id}`);
      todo.done = true;
      break;
    }
    case "delete_todo":
      todos = todos.filter((t) => t.id !== args.item.id);
      break;
    case "rename_list":
      document.querySelector("h1").textContent = args.title;
      return;
  }
  render();
});

aotui.onSerialize(() => ({ todos, nextId, title: document.querySelector("h1").textContent }));
aotui.onRestore((data) => {
  todos = data.todos;
  nextId = data.nextId;
  document.querySelector("h1").textContent = data.title;
  render();
});

render();
