// A mail-like app with two views: the inbox (a list) and the message detail, which is
// dismounted until a message is opened. New mail arrives at the top of the inbox, so an
// index the agent read earlier may point at another message now — the runtime's snapshot
// registry resolves it to the message the agent saw (value-driven execution).
const mails = [
  { id: "m1", from: "alice@example.com", subject: "Lunch on Friday?", body: "Shall we try the new place?" },
  { id: "m2", from: "bob@example.com", subject: "Quarterly report", body: "Draft attached, comments by Monday." },
  { id: "m3", from: "carol@example.com", subject: "Welcome aboard", body: "Glad to have you on the team." },
];
let inbox = mails.map((m) => m.id);
let openId = null;
let archived = [];
let incoming = 0;

const byId = (id) => mails.find((m) => m.id === id);

document.body.setAttribute("view", "Inbox");
document.body.innerHTML = `
  <h1>Inbox</h1>
  <ol list="mail[]:inbox"></ol>
  <button operation="open_mail" args='{"mail": "mail"}'>Open</button>
  <button operation="archive_mail" args='{"mail": "mail"}'>Archive</button>
  <button operation="receive_mail" args='{"from": "string", "subject": "string"}'>Simulate new mail</button>`;

const detail = aotui.createView("MailDetail", { mounted: false });
detail.body.innerHTML = `
  <h1 entity="subject:mail_subject"></h1>
  <p class="from"></p>
  <p class="body"></p>
  <button operation="close_mail">Close</button>`;

function renderInbox() {
  const list = document.querySelector("ol");
  list.innerHTML = "";
  for (const id of inbox) {
    const mail = byId(id);
    const li = document.createElement("li");
    li.setAttribute("key", mail.id);
    li.setAttribute("data-value", JSON.stringify({ id: mail.id }));
    li.textContent = `${mail.from}: ${mail.subject}`;
    list.appendChild(li);
  }
}

function renderDetail() {
  const mail = openId && byId(openId);
  detail.querySelector("h1").textContent = mail ? mail.subject : "";
  detail.querySelector(".from").textContent = mail ? `From: ${mail.from}` : "";
  detail.querySelector(".body").textContent = mail ? mail.body : "";
  if (mail) aotui.mount(detail);
  else aotui.dismount(detail);
}

function onOperation(event) {
  const { operation, args } = event.detail;
  switch (operation) {
    case "open_mail":
      if (!byId(args.mail.id)) throw new Error(`no mail ${args.mail.id}`);
      openId = args.mail.id;
      renderDetail();
      return;
    case "archive_mail":
      inbox = inbox.filter((id) => id !== args.mail.id);
      archived.push(args.mail.id);
      renderInbox();
      return;
    case "receive_mail": {
      const mail = { id: `n${++incoming}`, from: args.from, subject: args.subject, body: "(new)" };
      mails.push(mail);
      inbox.unshift(mail.id);
      renderInbox();
      return;
    }
    case "close_mail":
      openId = null;
      renderDetail();
      return;
  }
}
document.body.addEventListener("aotui:operation", onOperation);
detail.body.addEventListener("aotui:operation", onOperation);

aotui.onSerialize(() => ({ mails, inbox, openId, archived, incoming }));
aotui.onRestore((data) => {
  mails.splice(0, mails.length, ...data.mails);
  ({ inbox, openId, archived, incoming } = data);
  renderInbox();
  renderDetail();
});

renderInbox();
