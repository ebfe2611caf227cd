// The sandbox page: a Telegram-like view of the emulator's group and the seats' private chats.
// It reads one snapshot from /_sandbox/view after every change (long polling /_emu/wait) and
// acts through the emulator's control endpoints, as the seat that owns the chat (or, in the
// group, as the selected seat). Text from the bot is rendered from its entities, never as HTML.
"use strict";

const SUGGESTED_NAMES = ["민준", "서연", "Alice", "지호", "Bob", "하은", "Carol", "도윤", "Dave", "수아"];
const NAME_COLORS = ["#cc5049", "#d67722", "#955cdb", "#40a920", "#309eba", "#368ad1", "#c7508b"];
const AVATAR_COLORS = [
  ["#ff885e", "#ff516a"], ["#ffcd6a", "#ffa85c"], ["#82b1ff", "#665fff"], ["#a0de7e", "#54cb68"],
  ["#53edd6", "#28c9b7"], ["#72d5fd", "#2a9ef1"], ["#e0a2f3", "#d669ed"],
];
const TOAST_MS = 2600;
const ANSWER_WAIT_MS = 15000;

const ui = {
  view: null,
  selectedSeat: null, // the seat that acts in the group, and whose private chat is shown
  activeChat: "group", // "group" or a seat id: the one chat shown on a narrow screen
  seen: new Map(), // chat key -> highest message id seen while the chat was on screen
  pending: new Set(), // "chat:message:data" of buttons waiting for the bot's answer
  panes: {},
};

// ------------------------------------------------------------------------------ HTTP

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let payload = null;
  try {
    payload = await response.json();
  } catch (_) {
    throw new Error(`${response.status} ${response.statusText}`);
  }
  if (!payload.ok) throw new Error(payload.error || payload.description || "request failed");
  return payload.result;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function setPending(delta) {
  const body = document.body;
  body.dataset.pending = String(Number(body.dataset.pending) + delta);
}

// ------------------------------------------------------------------------------ small helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

function initials(name) {
  const trimmed = (name || "?").trim();
  return Array.from(trimmed)[0].toUpperCase();
}

function avatar(id, name, extra) {
  const [a, b] = AVATAR_COLORS[Math.abs(Number(id)) % AVATAR_COLORS.length];
  const node = el("div", { class: `avatar ${extra || ""}`, "aria-hidden": "true" }, initials(name));
  node.style.background = `linear-gradient(${a}, ${b})`;
  return node;
}

function pickaxe() {
  return document.getElementById("pickaxe").content.cloneNode(true);
}

function nameColor(id) {
  return NAME_COLORS[Math.abs(Number(id)) % NAME_COLORS.length];
}

function clock(seconds) {
  const d = new Date(seconds * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function seatById(id) {
  return ui.view ? ui.view.seats.find((s) => s.id === Number(id)) || null : null;
}

function chatKey(chatId) {
  return String(chatId);
}

function isWide() {
  return window.matchMedia("(min-width: 900px)").matches;
}

// ------------------------------------------------------------------------------ formatting

// Telegram's entities, nested as the HTML they came from; offsets are UTF-16, like JS strings.
function formatted(text, entities) {
  const fragment = document.createDocumentFragment();
  const sorted = (entities || [])
    .filter((e) => e.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  appendRange(fragment, text || "", sorted, 0, (text || "").length, true);
  return fragment;
}

function appendRange(parent, text, entities, start, end, plain) {
  let pos = start;
  let i = 0;
  while (i < entities.length) {
    const entity = entities[i];
    const from = Math.max(entity.offset, pos);
    const to = Math.min(entity.offset + entity.length, end);
    let j = i + 1;
    while (j < entities.length && entities[j].offset < entity.offset + entity.length) j++;
    if (from < to) {
      if (from > pos) appendPlain(parent, text.slice(pos, from), plain);
      const node = entityNode(entity, text.slice(from, to));
      const inside = plain && !["code", "pre", "bot_command", "text_link", "url"].includes(entity.type);
      if (entity.type === "date_time") node.append(localMoment(entity, text.slice(from, to)));
      else appendRange(node, text, entities.slice(i + 1, j), from, to, inside);
      parent.append(node);
      pos = to;
    }
    i = j;
  }
  if (pos < end) appendPlain(parent, text.slice(pos, end), plain);
}

// Telegram apps make the /commands in a bot's text tappable even without an entity.
const COMMAND_IN_TEXT = /(?<![^\s(])\/[A-Za-z][A-Za-z0-9_]{0,31}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@/])/g;

function appendPlain(parent, text, detectCommands) {
  if (!detectCommands) {
    parent.append(text);
    return;
  }
  let pos = 0;
  for (const match of text.matchAll(COMMAND_IN_TEXT)) {
    if (match.index > pos) parent.append(text.slice(pos, match.index));
    parent.append(el("span", { class: "command", dataset: { command: match[0] } }, match[0]));
    pos = match.index + match[0].length;
  }
  if (pos < text.length) parent.append(text.slice(pos));
}

function entityNode(entity, shown) {
  switch (entity.type) {
    case "bold": return el("b");
    case "italic": return el("i");
    case "underline": return el("u");
    case "strikethrough": return el("s");
    case "code": return el("code");
    case "pre": return el("pre");
    case "blockquote":
    case "expandable_blockquote": return el("blockquote");
    case "spoiler": return el("span", { class: "spoiler", title: "Tap to reveal" });
    case "text_mention":
      return el("span", { class: "mention", dataset: { userId: entity.user ? entity.user.id : "" } });
    case "text_link": {
      const user = /^tg:\/\/user\?id=(\d+)$/.exec(entity.url || "");
      if (user) return el("span", { class: "mention", dataset: { userId: user[1] } });
      return el("a", { class: "link", href: safeHref(entity.url), dataset: { url: entity.url } });
    }
    case "url": return el("a", { class: "link", href: safeHref(shown), dataset: { url: shown } });
    case "date_time":
      return el("time", {
        class: "date-time",
        datetime: new Date(entity.unix_time * 1000).toISOString(),
        title: shown,
        "data-testid": "date-time",
        dataset: { unix: entity.unix_time, format: entity.date_time_format || "" },
      });
    case "bot_command": return el("span", { class: "command", dataset: { command: shown } });
    case "mention":
    case "hashtag":
    case "cashtag":
    case "email":
    case "phone_number": return el("span", { class: "link" });
    default: return el("span");
  }
}

// Bot API 9.5: a date_time entity shows its moment in the viewer's own time zone and language,
// as its format asks (r: relative; w: day of week; t/T: short/long time; d/D: short/long date,
// in that order, as Telegram's apps write them); without a format, the text as written. The
// text inside (the bot's fallback) is kept as the tooltip.
function localMoment(entity, fallback) {
  const when = new Date(entity.unix_time * 1000);
  const fmt = entity.date_time_format || "";
  if (!fmt || Number.isNaN(when.getTime())) return fallback;
  const lang = navigator.language;
  if (fmt === "r") {
    const seconds = Math.round((when.getTime() - Date.now()) / 1000);
    const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
    const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) || units[3];
    return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(Math.round(seconds / size), unit);
  }
  const parts = [];
  if (fmt.includes("w")) parts.push(when.toLocaleDateString(lang, { weekday: "long" }));
  if (fmt.includes("t")) parts.push(when.toLocaleTimeString(lang, { timeStyle: "short" }));
  if (fmt.includes("T")) parts.push(when.toLocaleTimeString(lang, { timeStyle: "long" }));
  if (fmt.includes("d")) parts.push(when.toLocaleDateString(lang, { dateStyle: "short" }));
  if (fmt.includes("D")) parts.push(when.toLocaleDateString(lang, { dateStyle: "long" }));
  return parts.join(" ");
}

function safeHref(url) {
  return /^(https?:\/\/|tg:\/\/)/i.test(url || "") ? url : "#";
}

// ------------------------------------------------------------------------------ messages

const SERVICE_TEXTS = {
  group_chat_created: (m) => `${m.from.first_name} created the group «${m.chat.title}»`,
  supergroup_chat_created: (m) => `${m.from.first_name} created the group «${m.chat.title}»`,
  new_chat_members: (m) => {
    const names = m.new_chat_members.map((u) => u.first_name).join(", ");
    return m.new_chat_members.some((u) => u.id === m.from.id)
      ? `${names} joined the group`
      : `${m.from.first_name} added ${names}`;
  },
  left_chat_member: (m) => `${m.left_chat_member.first_name} left the group`,
  new_chat_title: (m) => `${m.from.first_name} renamed the group to «${m.new_chat_title}»`,
  pinned_message: (m) => `${m.from.first_name} pinned a message`,
  forum_topic_created: (m) => `${m.from.first_name} created the topic «${m.forum_topic_created.name}»`,
  migrate_to_chat_id: () => "The group was upgraded to a supergroup",
  migrate_from_chat_id: () => "The group was upgraded from a basic group",
};

function serviceText(message) {
  for (const [field, text] of Object.entries(SERVICE_TEXTS)) {
    if (message[field] !== undefined) return text(message);
  }
  return null;
}

function messageNode(message, pane, selfId) {
  const media = message.photo ? message.photo[message.photo.length - 1] : message.animation;
  const service = message.text === undefined && !media ? serviceText(message) : null;
  if (service !== null) {
    return el("div", { class: "service", "data-testid": "service-message" }, el("span", {}, service));
  }
  const from = message.from;
  const isBot = from.is_bot;
  const isOut = !isBot && from.id === selfId;
  const inGroup = pane.kind === "group";
  const bubble = el("div", { class: `bubble ${media ? "has-photo" : ""}` });
  if (inGroup && !isOut) {
    bubble.append(
      el("div", { class: "sender", style: `color:${nameColor(from.id)}` }, from.first_name,
        isBot ? el("span", { class: "bot-tag" }, "bot") : null),
    );
  }
  let img = null;
  if (media && message.emulator.photo_url) {
    img = el("img", {
      class: "photo",
      "data-testid": "message-photo",
      src: message.emulator.photo_url,
      width: media.width,
      height: media.height,
      alt: "photo",
      loading: "eager",
    });
    img.addEventListener("load", () => pane.stickIfNeeded());
    bubble.append(img);
  }
  const text = message.text !== undefined ? message.text : message.caption;
  const entities = message.text !== undefined ? message.entities : message.caption_entities;
  const meta = el("span", { class: "meta" },
    message.edit_date ? el("span", { class: "edited" }, "edited ") : null,
    clock(message.date));
  if (text) {
    bubble.append(el("div", { class: "text", "data-testid": "message-text" }, formatted(text, entities), meta));
  } else {
    bubble.append(el("div", { class: "text photo-meta" }, meta));
  }
  // Bot API 7.3: show_caption_above_media puts the caption over the picture.
  if (img && text && message.show_caption_above_media) bubble.append(img);
  const ephemeral = Boolean(message.emulator && message.emulator.ephemeral);
  if (ephemeral) {
    // Bot API 10.2: an ephemeral message, which this seat alone sees in the group.
    bubble.prepend(el("div", { class: "ephemeral-tag", "data-testid": "ephemeral-tag" },
      "👁 Only you can see this"));
  }
  const row = el("div", {
    class: `message ${isOut ? "out" : "in"} ${ephemeral ? "ephemeral" : ""}`,
    "data-testid": "message",
    "data-message-id": message.message_id,
    "data-ephemeral": ephemeral ? "true" : null,
    "data-from": isBot ? "bot" : String(from.id),
  });
  const column = el("div", { class: "column" }, bubble);
  const keyboard = keyboardNode(message, pane);
  if (keyboard) column.append(keyboard);
  if (inGroup && !isOut) row.append(avatar(from.id, from.first_name, "small"));
  row.append(column);
  return row;
}

function keyboardNode(message, pane) {
  const markup = message.reply_markup;
  if (!markup || !Array.isArray(markup.inline_keyboard) || markup.inline_keyboard.length === 0) return null;
  const chatId = message.chat.id;
  const keyboard = el("div", { class: "keyboard", "data-testid": "keyboard" });
  for (const row of markup.inline_keyboard) {
    const line = el("div", { class: "kb-row" });
    for (const button of row) {
      const kind = button.callback_data !== undefined ? "callback"
        : button.url !== undefined ? "url"
        : button.disabled !== undefined ? "disabled" : "other";
      const key = `${chatId}:${message.message_id}:${button.callback_data}`;
      const node = el("button", {
        type: "button",
        class: `kb-button ${kind}`,
        "data-style": typeof button.style === "string" ? button.style : null,
        "data-testid": "kb-button",
        "data-kind": kind,
        "data-pending": kind === "callback" && ui.pending.has(key) ? "true" : null,
        disabled: kind === "disabled", // a Bot API 10.3 DisabledButton does nothing
        title: button.url || null,
      }, el("span", { class: "kb-label" }, button.text));
      if (kind === "url") node.append(el("span", { class: "kb-corner", "aria-hidden": "true" }, "↗"));
      node.addEventListener("click", () => {
        const actor = pane.actor();
        const ephemeralId = message.emulator && message.emulator.ephemeral
          ? message.ephemeral_message_id : undefined;
        if (kind === "callback") {
          pressButton(chatId, message.message_id, button.callback_data, actor, ephemeralId);
        }
        else if (kind === "url") openLink(button.url, actor);
      });
      line.append(node);
    }
    keyboard.append(line);
  }
  return keyboard;
}

// ------------------------------------------------------------------------------ chat panes

class Pane {
  constructor(root, kind) {
    this.root = root;
    this.kind = kind; // "group" or "private"
    this.list = root.querySelector(".messages");
    this.form = root.querySelector(".composer");
    this.input = root.querySelector("[data-testid=composer-input]");
    this.asSelect = root.querySelector("[data-testid=composer-as]");
    this.menu = root.querySelector("[data-testid=command-list]");
    this.nodes = new Map(); // message id -> {node, signature}
    this.chatId = null;
    this.stick = true;
    this.list.addEventListener("scroll", () => {
      this.stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 48;
      if (this.stick) markSeen();
    });
    this.list.addEventListener("click", (event) => this.onTextClick(event));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send(this.input.value);
    });
    root.querySelector("[data-testid=command-menu]").addEventListener("click", () => this.toggleMenu());
    if (this.asSelect) {
      this.asSelect.addEventListener("change", () => selectSeat(Number(this.asSelect.value), false));
    }
  }

  actor() {
    return this.kind === "group" ? ui.selectedSeat : this.chatId;
  }

  stickIfNeeded() {
    if (this.stick) this.list.scrollTop = this.list.scrollHeight;
  }

  show(chatId, messages, selfId) {
    const switched = chatId !== this.chatId;
    if (switched) {
      this.list.replaceChildren();
      this.nodes.clear();
      this.chatId = chatId;
      this.stick = true;
    }
    const stick = this.stick;
    const keep = new Set();
    let previous = null;
    for (const message of messages) {
      const id = message.message_id;
      keep.add(id);
      const signature = `${selfId}|${pendingOf(message)}|${JSON.stringify(message)}`;
      let entry = this.nodes.get(id);
      if (!entry || entry.signature !== signature) {
        const node = messageNode(message, this, selfId);
        if (entry) entry.node.replaceWith(node);
        entry = { node, signature };
        this.nodes.set(id, entry);
      }
      const expected = previous ? previous.nextSibling : this.list.firstChild;
      if (expected !== entry.node) this.list.insertBefore(entry.node, expected);
      previous = entry.node;
    }
    for (const [id, entry] of this.nodes) {
      if (!keep.has(id)) {
        entry.node.remove();
        this.nodes.delete(id);
      }
    }
    this.stick = stick;
    this.stickIfNeeded();
  }

  clear() {
    this.list.replaceChildren();
    this.nodes.clear();
    this.chatId = null;
  }

  async send(text) {
    const actor = this.actor();
    if (!text.trim() || actor === null || this.chatId === null) return;
    this.input.value = "";
    this.stick = true;
    this.hideMenu();
    try {
      await api("POST", `/_emu/chats/${this.chatId}/messages`, { user_id: actor, text });
      await refresh();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  onTextClick(event) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const spoiler = target.closest(".spoiler");
    if (spoiler) spoiler.classList.add("revealed");
    const command = target.closest(".command");
    if (command) this.send(command.dataset.command);
    const mention = target.closest(".mention");
    if (mention && seatById(mention.dataset.userId)) selectSeat(Number(mention.dataset.userId), true);
    const link = target.closest("a.link");
    if (link) {
      event.preventDefault();
      openLink(link.dataset.url, this.actor());
    }
    const photo = target.closest("img.photo");
    if (photo) openLightbox(photo.src);
  }

  commands() {
    if (!ui.view) return [];
    if (this.kind === "group") return ui.view.group.commands;
    const seat = seatById(this.chatId);
    return seat ? seat.commands : [];
  }

  toggleMenu() {
    if (!this.menu.hidden) {
      this.hideMenu();
      return;
    }
    const items = this.commands().map((c) =>
      el("button", { type: "button", class: "command-item", "data-testid": "command-item",
        onclick: () => this.send(`/${c.command}`) },
      el("span", { class: "command-name" }, `/${c.command}`),
      el("span", { class: "command-description" }, c.description)));
    if (items.length === 0) items.push(el("div", { class: "command-item" }, "No commands yet"));
    this.menu.replaceChildren(...items);
    this.menu.hidden = false;
  }

  hideMenu() {
    this.menu.hidden = true;
  }
}

function pendingOf(message) {
  const prefix = `${message.chat.id}:${message.message_id}:`;
  return Array.from(ui.pending).filter((key) => key.startsWith(prefix)).join(",");
}

// ------------------------------------------------------------------------------ acting

async function pressButton(chatId, messageId, data, userId, ephemeralId) {
  if (userId === null || userId === undefined) {
    toast("Add a seat first: buttons are tapped by a seat.", "error");
    return;
  }
  const key = `${chatId}:${messageId}:${data}`;
  if (ui.pending.has(key)) return;
  ui.pending.add(key);
  setPending(1);
  render();
  try {
    const pressed = ephemeralId !== undefined
      ? await api("POST", "/_sandbox/ephemeral/press", {
        user_id: userId,
        ephemeral_message_id: ephemeralId,
        callback_data: data,
      })
      : await api("POST", `/_emu/chats/${chatId}/messages/${messageId}/press`, {
        user_id: userId,
        callback_data: data,
      });
    const answer = await waitForAnswer(pressed.callback_query_id);
    if (answer === null) {
      toast("The bot did not answer (it would spin in Telegram).", "error");
    } else {
      if (answer.text) {
        if (answer.show_alert) showAlert(answer.text);
        else toast(answer.text);
      }
      if (answer.url) await openLink(answer.url, userId);
      await api("GET", "/_sandbox/idle"); // the screens are drawn after the answer
    }
    await refresh();
  } catch (error) {
    toast(error.message, "error");
  } finally {
    ui.pending.delete(key);
    setPending(-1);
    render();
  }
}

async function waitForAnswer(queryId) {
  const deadline = Date.now() + ANSWER_WAIT_MS;
  let version = ui.view ? ui.view.version : 0;
  while (Date.now() < deadline) {
    const query = await api("GET", `/_emu/callback_queries/${queryId}`);
    if (query.answered) return query;
    const waited = await api("GET", `/_emu/wait?after=${version}&timeout=2`);
    version = waited.version;
  }
  return null;
}

// A t.me link to the bot opens its private chat as `userId` with the start payload.
async function openLink(url, userId) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch (_) {
    return;
  }
  const bot = ui.view ? (ui.view.bot.username || "").toLowerCase() : "";
  const isTelegram = ["t.me", "telegram.me"].includes(parsed.hostname);
  if (isTelegram && parsed.pathname.replace(/^\/+|\/+$/g, "").toLowerCase() === bot) {
    if (userId === null || userId === undefined) {
      toast("Add a seat first: a link opens as a seat.", "error");
      return;
    }
    setPending(1);
    try {
      await api("POST", `/_emu/users/${userId}/open_link`, { url });
      await api("GET", "/_sandbox/idle"); // the link's /start handled, as after a tap
      selectSeat(userId, true);
      await refresh();
    } catch (error) {
      toast(error.message, "error");
    } finally {
      setPending(-1);
    }
    return;
  }
  const user = /^tg:\/\/user\?id=(\d+)$/.exec(url);
  if (user && seatById(user[1])) {
    selectSeat(Number(user[1]), true);
    return;
  }
  if (/^https?:$/.test(parsed.protocol)) window.open(url, "_blank", "noopener,noreferrer");
}

async function addSeat(name, language) {
  const seat = await api("POST", "/_sandbox/seats", { name, language });
  await refresh();
  selectSeat(seat.id, false);
  return seat;
}

// ------------------------------------------------------------------------------ selection

function selectSeat(seatId, openPrivate) {
  if (!seatById(seatId)) return;
  ui.selectedSeat = seatId;
  if (openPrivate) ui.activeChat = seatId;
  render();
}

function openChat(key) {
  if (key === "group") ui.activeChat = "group";
  else selectSeat(Number(key), true);
  render();
  const pane = key === "group" ? ui.panes.group : ui.panes.private;
  pane.stick = true;
  pane.stickIfNeeded();
}

function visibleChats() {
  const out = [];
  if (!ui.view) return out;
  const privateId = ui.selectedSeat;
  if (isWide()) {
    out.push(ui.view.group.id);
    if (privateId !== null) out.push(privateId);
  } else {
    out.push(ui.activeChat === "group" ? ui.view.group.id : ui.activeChat);
  }
  return out;
}

function messagesOf(chatId) {
  if (!ui.view) return [];
  if (chatId === ui.view.group.id) return ui.view.group.messages;
  const seat = seatById(chatId);
  return seat ? seat.messages : [];
}

function markSeen() {
  for (const chatId of visibleChats()) {
    const messages = messagesOf(chatId);
    const last = messages.length ? messages[messages.length - 1].message_id : 0;
    ui.seen.set(chatKey(chatId), Math.max(ui.seen.get(chatKey(chatId)) || 0, last));
  }
}

function unread(chatId) {
  const seen = ui.seen.get(chatKey(chatId)) || 0;
  return messagesOf(chatId).filter((m) => m.message_id > seen && m.from.is_bot).length;
}

// ------------------------------------------------------------------------------ rendering

function preview(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    const text = m.text !== undefined ? m.text : m.caption;
    if (m.photo) return text ? `Photo · ${text.split("\n")[0]}` : "Photo";
    if (m.animation) return text ? `GIF · ${text.split("\n")[0]}` : "GIF";
    if (text) return text.split("\n")[0];
    const service = serviceText(m);
    if (service) return service;
  }
  return "";
}

function render() {
  const view = ui.view;
  if (!view) return;
  const wide = isWide();
  document.body.dataset.layout = wide ? "wide" : "narrow";
  if (ui.selectedSeat !== null && !seatById(ui.selectedSeat)) ui.selectedSeat = null;
  if (ui.selectedSeat === null && view.seats.length) ui.selectedSeat = view.seats[0].id;
  if (ui.activeChat !== "group" && !seatById(ui.activeChat)) ui.activeChat = "group";

  const store = document.querySelector("[data-testid=store]");
  store.textContent = view.store.embedded ? "embedded store" : "Redis";
  store.title = view.store.text;
  store.classList.toggle("embedded", view.store.embedded);

  renderSwitcher(view);
  renderGroup(view);
  renderPrivate(view);
  markSeen();
  renderSwitcher(view); // again, with the unread counts of what is now on screen
}

function renderSwitcher(view) {
  const nav = document.querySelector("[data-testid=chat-switcher]");
  const entries = [
    { key: "group", id: view.group.id, title: view.group.title, messages: view.group.messages, seat: null },
    ...view.seats.map((s) => ({ key: String(s.id), id: s.id, title: s.name, messages: s.messages, seat: s })),
  ];
  const wide = isWide();
  const items = entries.map((entry) => {
    const isGroup = entry.key === "group";
    const active = wide
      ? (isGroup ? false : entry.seat.id === ui.selectedSeat)
      : (isGroup ? ui.activeChat === "group" : ui.activeChat === entry.seat.id);
    const count = unread(entry.id);
    const icon = isGroup
      ? el("div", { class: "avatar group-avatar", "aria-hidden": "true" }, pickaxe())
      : avatar(entry.id, entry.title);
    return el("button", {
      type: "button",
      class: `chat-tab ${active ? "active" : ""} ${!isGroup && entry.seat.id === ui.selectedSeat ? "selected" : ""}`,
      "data-testid": "chat-tab",
      "data-chat": isGroup ? "group" : "private",
      "data-seat-id": isGroup ? null : entry.seat.id,
      "data-name": entry.title,
      "aria-pressed": active ? "true" : "false",
      onclick: () => openChat(entry.key),
    },
    icon,
    el("span", { class: "tab-body" },
      el("span", { class: "tab-title" }, entry.title,
        isGroup ? null : el("span", { class: "tab-sub" }, " · private")),
      el("span", { class: "tab-preview" }, preview(entry.messages))),
    count ? el("span", { class: "badge", "data-testid": "unread" }, String(count)) : null);
  });
  nav.replaceChildren(...items);
}

function renderGroup(view) {
  const pane = ui.panes.group;
  const root = pane.root;
  root.classList.toggle("active", ui.activeChat === "group");
  const seat = seatById(ui.selectedSeat);
  root.querySelector("[data-testid=chat-title]").textContent = view.group.title;
  root.querySelector("[data-testid=chat-subtitle]").textContent =
    `${view.group.members} members${seat ? ` · you are ${seat.name}` : ""}`;
  const options = view.seats.map((s) => el("option", { value: s.id }, s.name));
  const current = Array.from(pane.asSelect.options).map((o) => `${o.value}:${o.textContent}`).join();
  const wanted = view.seats.map((s) => `${s.id}:${s.name}`).join();
  if (current !== wanted) pane.asSelect.replaceChildren(...options);
  if (seat) pane.asSelect.value = String(seat.id);
  pane.asSelect.disabled = !seat;
  pane.input.disabled = !seat;
  pane.form.querySelector("[data-testid=composer-send]").disabled = !seat;
  pane.input.placeholder = seat ? `Message as ${seat.name}` : "Add a seat to write here";
  // The selected seat's own ephemeral messages in the group, and nobody else's.
  const own = seat ? (seat.group_ephemeral || []).map((m) => ({
    ...m, message_id: `e${m.ephemeral_message_id}`,
  })) : [];
  const shown = [...view.group.messages, ...own].sort((a, b) => a.date - b.date);
  pane.show(view.group.id, shown, ui.selectedSeat);
}

function renderPrivate(view) {
  const pane = ui.panes.private;
  const root = pane.root;
  const seat = seatById(ui.selectedSeat);
  root.classList.toggle("active", ui.activeChat !== "group");
  root.dataset.seatId = seat ? String(seat.id) : "";
  root.dataset.seatName = seat ? seat.name : "";
  root.querySelector("[data-testid=empty]").hidden = Boolean(seat);
  pane.form.hidden = !seat;
  root.querySelector("[data-testid=chat-title]").textContent = view.bot.first_name;
  root.querySelector("[data-testid=chat-subtitle]").textContent = `bot · @${view.bot.username}`;
  const chip = root.querySelector("[data-testid=seat-chip]");
  chip.replaceChildren(...(seat ? [avatar(seat.id, seat.name, "tiny"), el("span", {}, seat.name)] : []));
  chip.hidden = !seat;
  if (!seat) {
    pane.clear();
    return;
  }
  pane.input.placeholder = `Message as ${seat.name}`;
  pane.show(seat.id, seat.messages, seat.id);
}

// ------------------------------------------------------------------------------ toasts and dialogs

function toast(text, kind) {
  const box = document.querySelector("[data-testid=toasts]");
  const node = el("div", { class: `toast ${kind || ""}`, "data-testid": "toast", role: "status" }, text);
  box.append(node);
  setTimeout(() => node.classList.add("leaving"), TOAST_MS);
  setTimeout(() => node.remove(), TOAST_MS + 400);
}

function showAlert(text) {
  const backdrop = document.querySelector("[data-testid=alert]");
  backdrop.querySelector(".alert-from").textContent = ui.view ? ui.view.bot.first_name : "";
  backdrop.querySelector("[data-testid=alert-text]").textContent = text;
  backdrop.hidden = false;
  backdrop.querySelector("[data-testid=alert-ok]").focus();
}

function openLightbox(src) {
  const box = document.querySelector("[data-testid=lightbox]");
  box.querySelector("img").src = src;
  box.hidden = false;
}

function nextSuggestedName() {
  const taken = new Set((ui.view ? ui.view.seats : []).map((s) => s.name));
  return SUGGESTED_NAMES.find((n) => !taken.has(n)) || `Player ${taken.size + 1}`;
}

function openSeatDialog() {
  const dialog = document.querySelector("[data-testid=seat-dialog]");
  const name = dialog.querySelector("[data-testid=seat-name]");
  const language = dialog.querySelector("[data-testid=seat-language]");
  name.value = nextSuggestedName();
  if (/[\u3131-\uD79D]/.test(name.value)) language.value = "ko"; // else the last choice
  dialog.querySelector("[data-testid=seat-error]").hidden = true;
  dialog.showModal();
  name.select();
}

function setUpDialogs() {
  const dialog = document.querySelector("[data-testid=seat-dialog]");
  const form = dialog.querySelector("form");
  const error = dialog.querySelector("[data-testid=seat-error]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = form.elements.name.value;
    const language = form.elements.language.value;
    setPending(1);
    try {
      await addSeat(name, language);
      dialog.close();
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
    } finally {
      setPending(-1);
    }
  });
  dialog.querySelector("[data-testid=seat-cancel]").addEventListener("click", () => dialog.close());
  for (const button of document.querySelectorAll("[data-testid=add-seat], .add-seat-inline")) {
    button.addEventListener("click", openSeatDialog);
  }
  const alertBox = document.querySelector("[data-testid=alert]");
  alertBox.querySelector("[data-testid=alert-ok]").addEventListener("click", () => { alertBox.hidden = true; });
  const lightbox = document.querySelector("[data-testid=lightbox]");
  lightbox.addEventListener("click", () => { lightbox.hidden = true; });
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.closest("[data-testid=command-list], [data-testid=command-menu]")) return;
    ui.panes.group.hideMenu();
    ui.panes.private.hideMenu();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      alertBox.hidden = true;
      lightbox.hidden = true;
      ui.panes.group.hideMenu();
      ui.panes.private.hideMenu();
    }
  });
}

// ------------------------------------------------------------------------------ live updates

async function refresh() {
  const view = await api("GET", "/_sandbox/view");
  if (!ui.view || view.version >= ui.view.version) {
    ui.view = view;
    fillLanguages(view.languages);
    render();
  }
  return view.version;
}

// The seat dialog offers the languages the bot has catalogs for, each named in itself.
function fillLanguages(languages) {
  const select = document.querySelector("[data-testid=seat-language]");
  if (select.options.length) return;
  for (const { code, name } of languages) select.append(el("option", { value: code }, name));
}

async function live() {
  const offline = document.querySelector("[data-testid=offline]");
  for (;;) {
    try {
      const version = await refresh();
      offline.hidden = true;
      document.body.dataset.ready = "true";
      await api("GET", `/_emu/wait?after=${version}&timeout=25`);
    } catch (_) {
      offline.hidden = false;
      await sleep(1000);
    }
  }
}

function start() {
  ui.panes.group = new Pane(document.querySelector("[data-testid=chat-group]"), "group");
  ui.panes.private = new Pane(document.querySelector("[data-testid=chat-private]"), "private");
  setUpDialogs();
  window.matchMedia("(min-width: 900px)").addEventListener("change", render);
  live();
}

document.addEventListener("DOMContentLoaded", start);
