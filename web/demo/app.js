// The demo app's page. Everything here is what any app's front end can do: read the session
// the platform serves on this address, ask its own backend what identity it received, and
// ask its backend to query.

"use strict";

// The spec's refusal table, as a person should read it.
const REFUSALS = {
  VALIDATION_FAILED: "The request is not valid: SQL is required and the row cap must be 1–100,000.",
  USER_SESSION_REQUIRED: "Nobody is signed in, or the session ended. Sign in and try again.",
  IDENTITY_ASSERTION_INVALID: "The identity does not check out. An app never treats it as a person.",
  ORGANIZATION_INTEGRATION_NOT_CONFIGURED: "The organization has no QueryMesh configured, or it is off. The organization administrator configures it.",
  QUERYMESH_NOT_ENABLED: "This app has not turned the querymesh capability on: zero services enable querymesh <service>.",
  QUERYMESH_IDENTITY_REJECTED: "QueryMesh did not accept the signed-in person's token (issuer, audience or scope). Signing in again does not help; the platform administration fixes the realm.",
  QUERYMESH_ACCESS_DENIED: "The organization's data policies deny this query to this person. Ask the data administrator for access.",
  QUERYMESH_QUERY_FAILED: "QueryMesh refused the query, or the result went past the row cap. Check the query.",
  QUERYMESH_UNAVAILABLE: "QueryMesh did not answer or is busy. Try again in a moment.",
  APPLICATION_IDENTITY_NOT_READY: "The broker has no keys available right now. Try again.",
  BROKER_UNREACHABLE: "The demo app could not reach the broker.",
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

async function loadSession() {
  // 203 Non-Authoritative Information is success: the platform's answer, relayed by the edge.
  const response = await fetch("/.nnumbers/auth/session", { credentials: "same-origin" });
  const session = await response.json();
  $("session").textContent = `HTTP ${response.status}\n` + JSON.stringify(session, null, 2);
  const user = session.user;
  $("sign-in").hidden = Boolean(user);
  $("sign-out").hidden = !user;
  $("who").textContent = user ? (user.name || user.preferred_username || user.email || user.sub) : "";
}

async function loadIdentity() {
  const box = $("identity");
  const answer = await (await fetch("/api/identity")).json();
  box.replaceChildren();
  if (!answer.received) {
    box.append(el("p", {}, "No identity: this request is anonymous. Sign in to receive one."));
    return;
  }
  if (answer.problem) {
    box.append(el("p", { class: "fail verdict" }, `Refused: ${answer.problem}.`));
    return;
  }
  const report = answer.report;
  const checks = el("ul", { class: "checks", id: "checks" });
  for (const check of report.checks) {
    checks.append(el("li", { class: check.passed ? "pass" : "fail", "data-check": check.name },
      `${check.passed ? "✓ passed" : "✗ failed"} — ${check.name}: ${check.detail}`));
  }
  box.append(
    el("p", { class: `verdict ${report.accepted ? "pass" : "fail"}`, id: "verdict" },
      report.accepted ? "Accepted: this request is this person's." : "Refused: never treat it as a person."),
    checks,
    el("pre", {}, JSON.stringify({ header: report.header, payload: report.claims }, null, 2)),
  );
}

function renderTable(result) {
  const head = el("tr");
  for (const column of result.columns) {
    head.append(el("th", {}, column.name, " ", el("small", {}, column.type)));
  }
  const table = el("table", { id: "result-table" }, el("thead", {}, head));
  const body = el("tbody");
  for (const row of result.rows) {
    const tr = el("tr");
    for (const value of row) {
      tr.append(el("td", {}, value === null ? "NULL" : typeof value === "object" ? JSON.stringify(value) : String(value)));
    }
    body.append(tr);
  }
  table.append(body);
  return [el("p", { class: "subtle" }, `${result.rows.length} row(s)`), table];
}

function renderRefusal(status, refusal) {
  const explanation = REFUSALS[refusal.code] || "";
  return el("div", { class: "refusal", id: "refusal" },
    el("p", {}, el("code", {}, refusal.code || "ERROR"), ` (HTTP ${status}) `, explanation),
    el("p", { class: "subtle" }, refusal.message || ""));
}

async function runQuery(event) {
  event.preventDefault();
  const result = $("result");
  result.textContent = "Running…";
  const maxRows = Number($("max-rows").value);
  const body = { sql: $("sql").value };
  if (maxRows) body.max_rows = maxRows;
  try {
    const response = await fetch("/api/query", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    result.replaceChildren(...(response.ok ? renderTable(answer) : [renderRefusal(response.status, answer)]));
  } catch (error) {
    result.replaceChildren(renderRefusal("—", { code: "ERROR", message: String(error) }));
  }
}

$("query-form").addEventListener("submit", runQuery);
loadSession();
loadIdentity();
