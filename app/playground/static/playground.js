// The railtrip playground: posts a request to the streaming endpoints, shows each agent step
// as it arrives, then the itinerary with seats, prices and honest freshness. No build step.
"use strict";

const STATE_NAMES = {
  PARSE_INTENT: "理解请求",
  CLARIFY: "追问",
  QUERY_TICKETS: "查询余票",
  EVALUATE_OPTIONS: "评估方案",
  GENERATE_PLAN: "生成行程",
  FALLBACK: "调整条件",
  LLM_TOOLS: "智能助手",
};
const SEAT_STATUS = { available: "有票", sold_out: "无票", waitlist: "候补" };
const FAULT_MODES = [
  { id: "normal", label: "正常", knobs: {} },
  { id: "error", label: "返回错误", knobs: { error_rate: 1 } },
  { id: "rate_limit", label: "限流/封禁", knobs: { rate_limit_rate: 1 } },
  { id: "malformed", label: "数据损坏", knobs: { malformed_rate: 1 } },
  { id: "hang", label: "无响应", knobs: { hang_rate: 1 } },
];
const RATE_KNOBS = ["error_rate", "rate_limit_rate", "malformed_rate", "hang_rate"];
// The API key lives in this tab only (sessionStorage: gone when the tab closes), never in
// localStorage or a cookie; it is sent in the header the access gate reads.
const KEY_STORE = "railtrip.apiKey";
const KEY_HEADER = "X-API-Key";
const KEY_REFUSALS = {
  missing: "此服务需要 API 密钥：请在上方「API 密钥」一栏填写后重试。",
  invalid: "API 密钥无效：请检查上方「API 密钥」一栏后重试。",
  forbidden: "当前 API 密钥无权执行此操作（需要管理员密钥）。",
};

const page = { sessionId: null, seatLabels: {}, busy: false };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// -- calling the API ------------------------------------------------------------------------

// Every API call goes through here, so each one carries the key when one is set.
function api(path, options = {}) {
  const headers = new Headers(options.headers);
  const key = $("api-key").value.trim();
  if (key) headers.set(KEY_HEADER, key);
  return fetch(path, { ...options, headers });
}

// A refusal in the page's words: 401 and 403 are about the key (a 401 marks the key field),
// any other says the API's own message.
async function refusal(response) {
  const problem = await response.json().catch(() => ({ message: response.statusText }));
  let text = problem.message || problem.code;
  if (response.status === 401) {
    const field = $("api-key");
    text = field.value.trim() ? KEY_REFUSALS.invalid : KEY_REFUSALS.missing;
    field.setAttribute("aria-invalid", "true");
  } else if (response.status === 403) {
    text = KEY_REFUSALS.forbidden;
  }
  return `请求被拒绝（${response.status}）：${text}`;
}

function keepKey() {
  const field = $("api-key");
  field.removeAttribute("aria-invalid");
  const key = field.value.trim();
  if (key) sessionStorage.setItem(KEY_STORE, key);
  else sessionStorage.removeItem(KEY_STORE);
}

// -- Server-Sent Events over fetch (EventSource cannot POST) ---------------------------------

async function* sseEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (!line || line.startsWith(":")) continue; // comments are keep-alives
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let text = colon < 0 ? "" : line.slice(colon + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (field === "event") name = text;
        else if (field === "data") data.push(text);
      }
      if (data.length) yield { event: name, data: JSON.parse(data.join("\n")) };
    }
  }
}

// -- formatting -----------------------------------------------------------------------------

function clock(iso) {
  return iso.slice(11, 16);
}

function dayLabel(isoDate) {
  const [, month, day] = isoDate.slice(0, 10).split("-");
  return `${Number(month)}月${Number(day)}日`;
}

function yuan(value) {
  return value === null || value === undefined ? "—" : `${Number(value).toFixed(1).replace(/\.0$/, "")}元`;
}

function seatLabel(seatClass) {
  return page.seatLabels[seatClass] || seatClass;
}

function badge(freshness, ageS) {
  if (freshness === "realtime") return el("span", { class: "badge badge-realtime" }, "实时");
  if (freshness === "cached") {
    const age = ageS === null || ageS === undefined ? "" : ` ${Math.round(ageS)} 秒前`;
    return el("span", { class: "badge badge-cached" }, `缓存${age}`);
  }
  return el("span", { class: "badge badge-unavailable" }, "不可用");
}

// -- progress -------------------------------------------------------------------------------

function resetProgress() {
  $("progress").replaceChildren();
  $("error").hidden = true;
}

function addProgress(step) {
  const name = STATE_NAMES[step.state] || step.state;
  $("progress").append(
    el(
      "li",
      { "data-state": step.state },
      el("strong", {}, name),
      " ",
      el("span", { class: "state" }, step.state),
      " ",
      step.message,
      " ",
      el("span", { class: "elapsed" }, `+${Math.round(step.elapsed_ms)} ms`),
    ),
  );
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
  clearResult(); // the previous reply is not this request's answer: never leave it showing
}

function clearResult() {
  $("result").hidden = true;
  for (const id of ["summary", "understood", "total", "session", "clarify-question"]) $(id).textContent = "";
  for (const id of ["timeline", "alternatives", "source-badges", "relaxed", "warnings"]) $(id).replaceChildren();
  for (const id of ["relaxed-box", "warnings-box", "clarify-form", "understood"]) $(id).hidden = true;
  $("summary").classList.remove("no-data");
}

// -- the reply ------------------------------------------------------------------------------

async function ticketsForLegs(legs) {
  // The plan says which seat was chosen; the ticket answer shows every class of that train.
  const wanted = new Map();
  for (const leg of legs) {
    const params = new URLSearchParams({
      origin: leg.origin_station.city,
      destination: leg.destination_station.city,
      date: leg.depart_at.slice(0, 10),
    });
    wanted.set(params.toString(), null);
  }
  await Promise.all(
    [...wanted.keys()].map(async (query) => {
      try {
        const response = await api(`/v1/tickets?${query}`);
        if (response.ok) wanted.set(query, await response.json());
      } catch (error) {
        wanted.set(query, null);
      }
    }),
  );
  return (leg) => {
    const query = new URLSearchParams({
      origin: leg.origin_station.city,
      destination: leg.destination_station.city,
      date: leg.depart_at.slice(0, 10),
    }).toString();
    return wanted.get(query);
  };
}

function cachedAge(answers, sourceName) {
  const ages = answers
    .filter((a) => a && a.freshness === "cached")
    .filter((a) => !sourceName || a.sources.some((s) => s.name === sourceName && s.freshness === "cached"))
    .map((a) => a.age_s)
    .filter((age) => age !== null && age !== undefined);
  return ages.length ? Math.max(...ages) : null;
}

function seatTable(leg, answer) {
  const offer = answer && answer.offers.find((o) => o.train_number === leg.train_number);
  if (!offer) return el("p", { class: "muted" }, "余票明细暂不可查");
  const rows = offer.seats.map((seat) =>
    el(
      "tr",
      { class: seat.seat_class === leg.seat_class ? "chosen" : null },
      el("td", {}, seatLabel(seat.seat_class)),
      el("td", {}, SEAT_STATUS[seat.status] || seat.status),
      el("td", {}, seat.available === null ? (seat.status === "available" ? "有" : "—") : `${seat.available} 张`),
      el("td", {}, yuan(seat.price)),
    ),
  );
  return el(
    "table",
    { class: "seats" },
    el("caption", { class: "muted" }, "余票与票价（/v1/tickets）", badge(answer.freshness, answer.age_s)),
    el("thead", {}, el("tr", {}, el("th", {}, "席别"), el("th", {}, "状态"), el("th", {}, "余票"), el("th", {}, "票价"))),
    el("tbody", {}, rows),
  );
}

function legCard(leg, answer) {
  return el(
    "article",
    { class: "leg", "data-train": leg.train_number },
    el(
      "div",
      { class: "leg-head" },
      el("span", { class: "train" }, leg.train_number),
      el("span", {}, `${clock(leg.depart_at)} ${leg.origin_station.name} → ${clock(leg.arrive_at)} ${leg.destination_station.name}`),
      badge(leg.freshness, leg.freshness === "cached" && answer ? answer.age_s : null),
    ),
    el("p", {}, `${seatLabel(leg.seat_class)} ${yuan(leg.unit_price)} × ${leg.passengers} 人 = ${yuan(leg.price)}`, leg.reason ? `（${leg.reason}）` : ""),
    seatTable(leg, answer),
  );
}

function timeline(itinerary, answerOf) {
  const days = itinerary.days.length
    ? itinerary.days
    : [...new Set(itinerary.legs.map((l) => l.depart_at.slice(0, 10)))].map((date) => ({ date, items: [] }));
  const sections = days.map((day) => {
    const parts = [el("h3", {}, dayLabel(day.date))];
    itinerary.legs.forEach((leg, index) => {
      if (leg.depart_at.slice(0, 10) !== day.date) return;
      parts.push(legCard(leg, answerOf(leg)));
      const next = itinerary.legs[index + 1];
      const transfer = next && itinerary.transfers.find((t) => t.station.name === leg.destination_station.name);
      if (transfer && next.segment === leg.segment) {
        const where = transfer.same_station ? "同站换乘" : `换至${transfer.to_station.name}`;
        parts.push(el("div", { class: "transfer" }, `在${transfer.station.name}换乘，${transfer.minutes} 分钟（${where}）`));
      }
    });
    for (const stay of itinerary.stays) {
      if (stay.arrive_at.slice(0, 10) !== day.date) continue;
      const until = stay.leave_at ? `至 ${dayLabel(stay.leave_at)} ${clock(stay.leave_at)}` : "（行程终点）";
      parts.push(el("div", { class: "stay" }, `停留 ${stay.city}：${clock(stay.arrive_at)} 起 ${until}`));
    }
    if (day.items.length) parts.push(el("ul", { class: "items" }, day.items.map((item) => el("li", {}, item))));
    return el("section", { class: "day", "data-date": day.date }, parts);
  });
  return sections;
}

function list(boxId, listId, items, render) {
  const shown = Array.isArray(items) && items.length > 0;
  $(boxId).hidden = !shown;
  $(listId).replaceChildren(...(shown ? items.map((item) => el("li", {}, render(item))) : []));
}

async function renderReply(reply) {
  if (reply.session_id) page.sessionId = reply.session_id;
  const itinerary = reply.itinerary;
  const legs = itinerary ? [...itinerary.legs, ...reply.alternatives.flatMap((alt) => alt.legs)] : [];
  const answerOf = await ticketsForLegs(legs);
  const answers = itinerary ? itinerary.legs.map(answerOf) : [];
  $("result").hidden = false;
  $("overall-badge").replaceWith(
    Object.assign(badge(reply.freshness, reply.freshness === "cached" ? cachedAge(answers) : null), { id: "overall-badge" }),
  );
  $("source-badges").replaceChildren(
    ...reply.sources.map((source) =>
      el(
        "li",
        { "data-source": source.name },
        `${source.name} `,
        badge(source.freshness, source.freshness === "cached" ? cachedAge(answers, source.name) : null),
        source.status !== "ok" ? el("span", { class: "muted" }, ` ${source.status}`) : null,
      ),
    ),
  );
  // Nothing was queried (a question, a refusal): there is no ticket data to rate.
  $("freshness").hidden = reply.sources.length === 0;
  $("summary").textContent = reply.summary === reply.clarify_question ? "" : reply.summary;
  // Sources were asked and none could answer: "no data", said apart from "no train matches".
  $("summary").classList.toggle("no-data", reply.freshness === "unavailable" && reply.sources.length > 0);
  $("understood").hidden = !reply.understood;
  $("understood").textContent = reply.understood ? `理解为：${reply.understood}` : "";
  list("relaxed-box", "relaxed", reply.relaxed, (r) => `${r.constraint}：${r.requested} → ${r.offered}（${r.reason}）`);
  list("warnings-box", "warnings", reply.warnings, (w) => w);
  const asking = Boolean(reply.clarify_question);
  $("clarify-form").hidden = !asking;
  $("clarify-question").textContent = reply.clarify_question || "";
  $("timeline").replaceChildren(...(itinerary ? timeline(itinerary, answerOf) : []));
  $("total").textContent = itinerary
    ? `合计 ${yuan(itinerary.total_price)}` +
      (itinerary.budget ? `，预算 ${yuan(itinerary.budget)}${itinerary.within_budget ? "（在预算内）" : "（超出预算）"}` : "") +
      (reply.alternatives.length ? `；另有 ${reply.alternatives.length} 个备选方案` : "")
    : "";
  $("alternatives").replaceChildren(
    ...reply.alternatives.map((alt, index) =>
      el(
        "details",
        { class: "alternative" },
        el("summary", {}, `备选 ${index + 1}：${alt.legs.map((l) => l.train_number).join("→")}，合计 ${yuan(alt.total_price)}`),
        timeline(alt, answerOf),
      ),
    ),
  );
  $("session").textContent = page.sessionId ? `会话 ${page.sessionId}` : "";
  if (asking) {
    $("clarify-text").value = "";
    $("clarify-text").focus();
  }
}

// -- running a request ----------------------------------------------------------------------

async function run(endpoint, body) {
  if (page.busy) return;
  page.busy = true;
  $("submit").disabled = true;
  $("result").setAttribute("aria-busy", "true"); // the previous reply, dimmed until replaced
  resetProgress();
  try {
    const response = await api(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      showError(await refusal(response));
      if (response.status === 401) $("api-key").focus();
      return;
    }
    for await (const { event, data } of sseEvents(response)) {
      if (event === "progress") addProgress(data);
      else if (event === "plan") await renderReply(data);
      else if (event === "error") showError(data.message);
      else if (event === "done") $("progress").append(el("li", { "data-state": "done" }, el("strong", {}, "完成")));
    }
  } catch (error) {
    showError(`连接中断：${error.message}`);
  } finally {
    page.busy = false;
    $("submit").disabled = false;
    $("result").removeAttribute("aria-busy");
    await loadFaults(); // the vendors' request counters moved
  }
}

function submitRequest(event) {
  event.preventDefault();
  const text = $("request-text").value.trim();
  if (!text) return;
  const endpoint = $("endpoint").value;
  page.sessionId = null; // a new request starts a new conversation
  run(endpoint, { text });
}

function submitAnswer(event) {
  event.preventDefault();
  const text = $("clarify-text").value.trim();
  if (!text) return;
  const body = { text };
  if (page.sessionId) body.session_id = page.sessionId;
  run("/v1/chat/stream", body);
}

// -- sandbox faults -------------------------------------------------------------------------

function modeOf(knobs) {
  const on = RATE_KNOBS.filter((knob) => knobs[knob] > 0);
  if (!on.length) return "normal";
  const mode = FAULT_MODES.find((m) => on.length === 1 && m.knobs[on[0]] === knobs[on[0]]);
  return mode ? mode.id : "custom";
}

function vendorControls(vendor) {
  const selectId = `fault-mode-${vendor.vendor}`;
  const latencyId = `fault-latency-${vendor.vendor}`;
  const current = modeOf(vendor.faults);
  const select = el(
    "select",
    { id: selectId },
    FAULT_MODES.map((m) => el("option", { value: m.id, selected: m.id === current }, m.label)),
    current === "custom" ? el("option", { value: "custom", selected: true }, "自定义") : null,
  );
  const latency = el("input", { id: latencyId, type: "number", min: 0, max: 60000, step: 50, value: vendor.faults.latency_ms });
  const apply = el("button", { type: "button", "data-vendor": vendor.vendor }, "应用");
  apply.addEventListener("click", () => setFaults(vendor.vendor, select.value, Number(latency.value) || 0));
  return el(
    "fieldset",
    { class: "vendor", "data-vendor": vendor.vendor },
    el("legend", {}, `供应商 ${vendor.vendor}`),
    el(
      "div",
      { class: "row" },
      el("label", { for: selectId }, "故障模式"),
      select,
      el("label", { for: latencyId }, "延迟（毫秒）"),
      latency,
      apply,
    ),
    el("p", { class: "muted" }, `已收到 ${vendor.counters.requests_total} 次请求`),
  );
}

async function loadFaults() {
  let response;
  try {
    response = await api("/sandbox/faults");
  } catch (error) {
    return;
  }
  // Not mounted, or not for this key (401/403 without an admin key): the panel stays hidden.
  if (!response.ok) return;
  const { vendors } = await response.json();
  $("fault-vendors").replaceChildren(...vendors.map(vendorControls));
  $("faults").hidden = vendors.length === 0;
}

async function setFaults(vendor, modeId, latencyMs) {
  const mode = FAULT_MODES.find((m) => m.id === modeId);
  const knobs = { latency_ms: latencyMs };
  if (mode) {
    for (const knob of RATE_KNOBS) knobs[knob] = 0;
    Object.assign(knobs, mode.knobs);
  }
  const response = await api(`/sandbox/${encodeURIComponent(vendor)}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(knobs),
  });
  if (!response.ok) {
    $("fault-status").textContent = `切换失败，${await refusal(response)}`;
    return;
  }
  const body = await response.json();
  $("fault-status").textContent = `供应商 ${vendor} 已切换为「${mode ? mode.label : "自定义"}」，延迟 ${body.faults.latency_ms} 毫秒`;
  await loadFaults();
}

// -- start ----------------------------------------------------------------------------------

async function start() {
  $("api-key").value = sessionStorage.getItem(KEY_STORE) || "";
  $("api-key").addEventListener("input", keepKey);
  // A new key may open the fault panel (an admin key); a shown panel stays as it is.
  $("api-key").addEventListener("change", () => $("faults").hidden && loadFaults());
  $("request-form").addEventListener("submit", submitRequest);
  $("request-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) $("request-form").requestSubmit();
  });
  $("clarify-form").addEventListener("submit", submitAnswer);
  for (const button of document.querySelectorAll("button.example")) {
    button.addEventListener("click", () => {
      $("request-text").value = button.textContent;
      $("request-text").focus();
    });
  }
  try {
    const response = await fetch("/playground/labels.json");
    if (response.ok) page.seatLabels = (await response.json()).seat_classes;
  } catch (error) {
    // labels are a nicety: the codes still show
  }
  await loadFaults();
  document.body.dataset.ready = "1";
}

start();
