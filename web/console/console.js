// The console: a page over the test-control API (/sandbox/v1/), nothing else. Every action is
// one API call; the panels re-read the API when the journal's stream says something happened.

const API = '/sandbox/v1';

// The refusal codes of the spec a fault rule may inject (the broker's INJECTABLE_CODES).
const CODES = [
  'USER_SESSION_REQUIRED', 'IDENTITY_ASSERTION_INVALID', 'ORGANIZATION_INTEGRATION_NOT_CONFIGURED',
  'QUERYMESH_NOT_ENABLED', 'QUERYMESH_IDENTITY_REJECTED', 'QUERYMESH_ACCESS_DENIED',
  'QUERYMESH_QUERY_FAILED', 'QUERYMESH_UNAVAILABLE', 'APPLICATION_IDENTITY_NOT_READY',
  'VALIDATION_FAILED',
];
const SWITCHES = {
  querymesh_configured: 'QueryMesh configured for the organization',
  querymesh_enabled: 'QueryMesh enabled for the app',
  querymesh_scope: 'The realm grants the QueryMesh scope',
  identity_keys_available: 'Identity keys available',
};
const MAX_EVENTS = 500;

const state = { people: [], endpoints: null, latest: null };

const $ = (id) => document.getElementById(id);

// What each panel last rendered: a panel is rebuilt only when its data changed, so keyboard
// focus stays where it is while the journal streams.
const rendered = {};
function changed(key, value) {
  const text = JSON.stringify(value);
  if (rendered[key] === text) return false;
  rendered[key] = text;
  return true;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function say(message, error = false) {
  const status = $('status');
  status.textContent = message;
  status.classList.toggle('error', error);
}

class ApiFailure extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(API + path, init);
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!response.ok) {
    throw new ApiFailure(response.status, json?.code ?? 'ERROR', json?.message ?? text);
  }
  return json;
}

// Runs an action, saying how it went (the error's own message when the API refused).
async function act(what, action) {
  try {
    const result = await action();
    say(what);
    return result;
  } catch (e) {
    say(`${e.code ?? 'Error'}: ${e.message}`, true);
    return undefined;
  }
}

function personName(sub) {
  const p = state.people.find((x) => x.sub === sub);
  return p?.name ?? p?.preferred_username ?? sub ?? '—';
}

function initials(p) {
  const source = p.name ?? p.preferred_username ?? p.sub;
  // As the sign-in page's (src/iam/signin_page.rs `initials`): the words before any that does
  // not start with a letter or a digit.
  const words = source.split(/\s+/).filter(Boolean);
  const cut = words.findIndex((w) => !/^[\p{L}\p{N}]/u.test(w));
  return (cut < 0 ? words : words.slice(0, cut)).slice(0, 2).map((w) => w[0].toUpperCase()).join('');
}

// The sign-in page's avatar colour for a sub (src/iam/signin_page.rs `hue`).
function hue(sub) {
  let h = 0;
  for (const b of new TextEncoder().encode(sub)) h = (Math.imul(h, 31) + b) >>> 0;
  return h % 8;
}

function time(unixSeconds) {
  return new Date(unixSeconds * 1000).toLocaleString();
}

// People ------------------------------------------------------------------------------------

async function loadPeople() {
  const { people } = await api('GET', '/people');
  state.people = people;
  if (!changed('people', people)) return;
  renderPeople();
  fillPersonSelects();
}

function renderPeople() {
  const list = $('people-list');
  list.replaceChildren(...state.people.map((p) => {
    const label = p.name ?? p.preferred_username ?? p.sub;
    return el('li', { class: 'card', 'data-sub': p.sub },
      el('span', { class: `avatar hue-${hue(p.sub)}`, 'aria-hidden': 'true', text: initials(p) }),
      el('span', { class: 'who' },
        el('span', { class: 'name', text: label }),
        el('span', { class: 'email', text: p.email ?? p.sub }),
        el('span', { class: 'chips' },
          (p.groups ?? []).map((g) => el('span', { class: 'chip', text: g })),
          p.configured ? null : el('span', { class: 'chip', text: 'added' }))),
      el('span', { class: 'actions' },
        el('button', {
          type: 'button', class: 'button primary sign-in-as', 'aria-label': `Sign in as ${label}`,
          text: 'Sign in as', onclick: () => signInAs(p),
        }),
        el('button', {
          type: 'button', class: 'button danger', 'aria-label': `Remove ${label}`,
          text: 'Remove', onclick: () => removePerson(p),
        })));
  }));
}

function fillPersonSelects() {
  const fill = (select, first) => {
    const keep = select.value;
    select.replaceChildren(...first, ...state.people.map((p) =>
      el('option', { value: p.sub, text: p.name ?? p.preferred_username ?? p.sub })));
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  };
  fill($('activity-sub'), [el('option', { value: '', text: 'everyone' })]);
  fill($('querymesh-person'), []);
}

// "Sign in as": a session through the control API, then the edge opened with its one-time
// link (the edge's own sign-in path sets the cookie). The tab is opened first, while the click
// still allows it; if the browser refuses, the link is offered instead.
async function signInAs(person) {
  const tab = window.open('about:blank', '_blank');
  const session = await act(`Signed in as ${personName(person.sub)}`, () =>
    api('POST', '/sessions', { person: person.sub, handoff: true }));
  if (!session) {
    tab?.close();
    return;
  }
  if (tab) {
    tab.opener = null;
    tab.location.href = session.handoff_url;
  } else {
    const status = $('status');
    status.replaceChildren(`Signed in as ${personName(person.sub)}: `,
      el('a', { href: session.handoff_url, target: '_blank', rel: 'noopener', text: 'open the app as them' }));
  }
  refreshSoon();
}

async function removePerson(person) {
  await act(`Removed ${personName(person.sub)}`, () =>
    api('DELETE', `/people/${encodeURIComponent(person.sub)}`));
  refreshSoon();
}

function parseAttributes(text) {
  const attributes = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf('=');
    if (at < 1) throw new ApiFailure(0, 'INVALID', `attribute line "${line}" is not key=value`);
    attributes[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return attributes;
}

$('add-person').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  await act('Person added', async () => {
    const person = {};
    for (const name of ['sub', 'name', 'email', 'preferred_username']) {
      const value = form.get(name).trim();
      if (value) person[name] = value;
    }
    const groups = form.get('groups').split(',').map((g) => g.trim()).filter(Boolean);
    if (groups.length) person.groups = groups;
    const attributes = parseAttributes(form.get('attributes'));
    if (Object.keys(attributes).length) person.attributes = attributes;
    await api('POST', '/people', person);
    event.target.reset();
  });
  refreshSoon();
});

// Sessions ----------------------------------------------------------------------------------

async function loadSessions() {
  const { sessions } = await api('GET', '/sessions');
  if (!changed('sessions', [sessions, state.people])) return;
  const bySub = new Map();
  for (const s of sessions) bySub.set(s.sub, (bySub.get(s.sub) ?? 0) + 1);
  const list = $('session-list');
  if (!sessions.length) {
    list.replaceChildren(el('li', { class: 'hint', text: 'No live sessions.' }));
  } else {
    list.replaceChildren(...sessions.map((s) => el('li', { class: 'row session', 'data-sid': s.sid, 'data-sub': s.sub },
      el('span', { class: 'name', text: personName(s.sub) }),
      el('span', { class: 'meta' }, `since ${time(s.created_at)} · sid `, el('code', { text: s.sid }),
        s.sso_session ? ' · SSO session ' : '', s.sso_session ? el('code', { text: s.sso_session }) : null),
      el('span', { class: 'actions' },
        el('button', {
          type: 'button', class: 'button end-session', 'aria-label': `End session ${s.sid} of ${personName(s.sub)}`,
          text: 'End session', onclick: () => endSession(s),
        }),
        bySub.get(s.sub) > 1 ? el('button', {
          type: 'button', class: 'button danger', 'aria-label': `End all of ${personName(s.sub)}'s sessions`,
          text: 'End all of theirs', onclick: () => endAllOf(s.sub),
        }) : null))));
  }
  const scope = $('fault-scope');
  const keep = scope.value;
  scope.replaceChildren(el('option', { value: 'everyone', text: 'everyone' }),
    ...state.people.map((p) => el('option', { value: `sub:${p.sub}`, text: `person: ${personName(p.sub)}` })),
    ...sessions.map((s) => el('option', { value: `sid:${s.sid}`, text: `session: ${personName(s.sub)} · ${s.sid.slice(0, 8)}` })));
  if ([...scope.options].some((o) => o.value === keep)) scope.value = keep;
}

async function endSession(s) {
  await act(`Ended ${personName(s.sub)}'s session`, () => api('DELETE', `/sessions/${encodeURIComponent(s.sid)}`));
  refreshSoon();
}

async function endAllOf(sub) {
  await act(`Ended all of ${personName(sub)}'s sessions`, () => api('DELETE', `/sessions?sub=${encodeURIComponent(sub)}`));
  refreshSoon();
}

// Identity ----------------------------------------------------------------------------------

function renderIdentity(target, report, withToken) {
  const checks = el('ul', { class: 'checks', 'aria-label': 'The five checks' },
    report.checks.map((c) => el('li', { class: `check ${c.ok ? 'ok' : 'bad'}`, 'data-check': c.check },
      el('span', { class: 'mark', 'aria-hidden': 'true', text: c.ok ? '✓' : '✗' }),
      el('span', {}, el('strong', { text: `${c.check}: ${c.ok ? 'passes' : 'fails'}` }), ` — ${c.detail}`))));
  const left = el('p', { class: 'time-left', 'data-exp': report.claims.exp ?? '', 'data-now': report.now });
  updateTimeLeft(left, report.seconds_left);
  target.replaceChildren(
    el('p', { class: `verdict ${report.valid ? 'ok' : 'bad'}`, text: report.valid ? 'Checks out: an app may treat it as the person.' : 'Does not check out: an app must refuse it.' }),
    left,
    checks,
    el('h3', { text: 'Header' }), el('pre', { class: 'json', tabindex: '0', 'aria-label': 'Header JSON', text: JSON.stringify(report.header, null, 2) }),
    el('h3', { text: 'Claims' }), el('pre', { class: 'json', tabindex: '0', 'aria-label': 'Claims JSON', text: JSON.stringify(report.claims, null, 2) }),
    withToken ? el('details', {}, el('summary', { text: 'The token' }),
      el('pre', { class: 'json', tabindex: '0', 'aria-label': 'The token', text: report.token })) : null);
  left.dataset.leftAt = String(Date.now());
  left.dataset.left = String(report.seconds_left ?? '');
}

function updateTimeLeft(node, secondsLeft) {
  if (secondsLeft === null || secondsLeft === undefined || secondsLeft === '') {
    node.textContent = 'No exp claim.';
  } else if (secondsLeft > 0) {
    node.textContent = `${Math.floor(secondsLeft / 60)} min ${secondsLeft % 60} s left (platform clock)`;
  } else {
    node.textContent = `Expired ${-secondsLeft} s ago (platform clock)`;
  }
}

setInterval(() => {
  for (const node of document.querySelectorAll('.time-left[data-left]')) {
    if (node.dataset.left === '') continue;
    const elapsed = Math.floor((Date.now() - Number(node.dataset.leftAt)) / 1000);
    updateTimeLeft(node, Number(node.dataset.left) - elapsed);
  }
}, 1000);

async function loadLatestIdentity() {
  const { identity } = await api('GET', '/identity/latest');
  if (!identity) return;
  if (state.latest === identity.token && identity.valid === state.latestValid) return;
  state.latest = identity.token;
  state.latestValid = identity.valid;
  renderIdentity($('latest-identity'), identity, true);
}

$('check-identity').addEventListener('submit', async (event) => {
  event.preventDefault();
  const token = new FormData(event.target).get('token').trim();
  const report = await act('Token checked', () => api('POST', '/identity/check', { token }));
  if (report) renderIdentity($('checked-identity'), report, false);
});

// Activity: the journal's server-sent events, read with fetch so the stream's named events
// (one per type) and its `dropped` notices all arrive in one place. -------------------------

let activity = null;
let lastEventId = 0;
const seenTypes = new Set();

function describe(event) {
  const d = event.details ?? {};
  const parts = [];
  for (const [k, v] of Object.entries(d)) {
    if (v === null || v === undefined) continue;
    parts.push(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  }
  return parts.join(' · ');
}

function addEvent(event) {
  const list = $('activity-list');
  if (!seenTypes.has(event.type)) {
    seenTypes.add(event.type);
    $('event-types').append(el('option', { value: event.type }));
  }
  const ok = event.outcome === 'OK' || event.outcome === null || event.outcome === undefined;
  const item = el('li', {
    class: 'event', 'data-type': event.type, 'data-outcome': event.outcome ?? '', 'data-sub': event.sub ?? '',
    'data-sid': event.sid ?? '', 'data-id': event.id,
  },
  el('span', { class: 'ts', text: new Date(event.ts_ms).toLocaleTimeString() }),
  el('span', { class: 'type', text: `${event.type} (${event.source})` }),
  el('span', { class: `outcome ${ok ? 'ok' : 'bad'}`, text: event.outcome ?? '' }),
  el('span', { class: 'what', text: [event.sub ? personName(event.sub) : null, describe(event)].filter(Boolean).join(' — ') }));
  list.prepend(item);
  while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
}

function addNotice(text) {
  $('activity-list').prepend(el('li', { class: 'event notice', text }));
}

// One SSE block: its fields (HTML §9.2.6, the parts the journal's stream uses).
function parseBlock(block) {
  const fields = { event: 'message', data: [], id: null };
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const at = line.indexOf(':');
    const name = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
    if (name === 'data') fields.data.push(value);
    else if (name === 'event') fields.event = value;
    else if (name === 'id') fields.id = value;
  }
  return fields;
}

async function follow(filter) {
  const controller = new AbortController();
  activity = controller;
  const params = new URLSearchParams();
  if (filter.sub) params.set('sub', filter.sub);
  if (filter.type) params.set('type', filter.type);
  let backoff = 500;
  while (!controller.signal.aborted) {
    try {
      const headers = lastEventId ? { 'last-event-id': String(lastEventId) } : {};
      const response = await fetch(`${API}/events/stream?${params}`, { headers, signal: controller.signal });
      if (!response.ok) throw new Error(`the stream answered ${response.status}`);
      $('activity-state').textContent = 'Live.';
      backoff = 500;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!block.data.length) continue;
          const data = JSON.parse(block.data.join('\n'));
          if (block.event === 'dropped') {
            addNotice(`${data.dropped} older event(s) were dropped by the journal's bound before they could be shown.`);
          } else {
            if (block.id) lastEventId = Number(block.id);
            addEvent(data);
            refreshSoon();
          }
        }
      }
    } catch (e) {
      if (controller.signal.aborted) return;
      $('activity-state').textContent = `Reconnecting (${e.message})…`;
    }
    await new Promise((r) => setTimeout(r, backoff));
    backoff = Math.min(backoff * 2, 10000);
  }
}

$('activity-filter').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  activity?.abort();
  lastEventId = 0;
  $('activity-list').replaceChildren();
  follow({ sub: form.get('sub'), type: form.get('type').trim() });
});

// Switches, keys, clock, faults, reset -------------------------------------------------------

// Bumped as each change a switch makes starts and ends, and the changes on their way: a read
// that overlapped a change may be older than it, and is not shown. Shown, it would flip the
// checkbox back, and the next press would send the old value again (a slow browser did: the
// console test's "querymesh_configured never became true").
let switchChanges = 0;
let switchChangesInFlight = 0;

function showSwitches(switches) {
  for (const [name, on] of Object.entries(switches)) {
    const input = $(`switch-${name}`);
    if (input) input.checked = on;
  }
}

async function loadSwitches() {
  const before = switchChanges;
  const switches = await api('GET', '/switches');
  if (before !== switchChanges || switchChangesInFlight > 0) return;
  const box = $('switch-list');
  if (box.querySelector('input')) {
    showSwitches(switches);
    return;
  }
  const legend = box.querySelector('legend');
  box.replaceChildren(legend, ...Object.entries(SWITCHES).map(([name, label]) => {
    const input = el('input', { type: 'checkbox', id: `switch-${name}`, name, checked: switches[name] });
    input.addEventListener('change', async () => {
      switchChanges += 1;
      switchChangesInFlight += 1;
      const answer = await act(`${label}: ${input.checked ? 'on' : 'off'}`, () => api('PATCH', '/switches', { [name]: input.checked }));
      switchChangesInFlight -= 1;
      switchChanges += 1;
      if (answer) showSwitches(answer);
      refreshSoon();
    });
    return el('label', { class: 'switch', for: `switch-${name}` }, input, label);
  }));
}

async function loadKeys() {
  const keys = await api('GET', '/keys');
  if (!changed('keys', keys)) return;
  const where = (k) => (k.in_app_environment ? 'in the app\'s NNUMBERS_IDENTITY_JWKS' : 'only at /v1/jwks');
  // The current kid is said once, above; the list holds the earlier keys still published.
  $('current-kid').textContent = keys.current;
  const current = keys.published.find((k) => k.current);
  $('current-kid-note').textContent = current ? `(${where(current)})` : '';
  $('key-list').replaceChildren(...keys.published.filter((k) => !k.current).map((k) => el('li', { class: 'meta' },
    el('code', { text: k.kid }), ` · published until ${time(k.published_until)} · ${where(k)}`)));
}

$('rotate-key').addEventListener('click', async () => {
  await act('Identity key rotated', () => api('POST', '/keys/rotate', {}));
  refreshSoon();
});

async function loadClock() {
  const clock = await api('GET', '/clock');
  $('clock-now').textContent = time(clock.now);
  $('clock-offset').textContent = String(clock.offset_seconds);
}

$('advance-clock').addEventListener('submit', async (event) => {
  event.preventDefault();
  const seconds = Number(new FormData(event.target).get('advance_seconds'));
  await act(`Clock advanced ${seconds} s`, () => api('POST', '/clock', { advance_seconds: seconds }));
  refreshSoon();
});

$('reset').addEventListener('click', async () => {
  await act('Reset to the configuration', () => api('POST', '/reset'));
  refreshSoon();
});

function faultText(rule) {
  const kind = rule.kind ?? {};
  const what = Object.entries(rule).filter(([k, v]) => !['id', 'scope'].includes(k) && v !== null)
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(' · ');
  const scope = typeof rule.scope === 'string' ? rule.scope
    : rule.scope?.sub ? `person ${personName(rule.scope.sub)}` : `session ${rule.scope?.sid ?? JSON.stringify(rule.scope)}`;
  return { what: what || JSON.stringify(kind), scope };
}

async function loadFaults() {
  const { faults } = await api('GET', '/faults');
  if (!changed('faults', [faults, state.people])) return;
  const list = $('fault-list');
  if (!faults.length) {
    list.replaceChildren(el('li', { class: 'hint', text: 'No fault rules.' }));
    return;
  }
  list.replaceChildren(...faults.map((rule) => {
    const { what, scope } = faultText(rule);
    return el('li', { class: 'row fault', 'data-id': rule.id },
      el('span', { class: 'name', text: `Rule ${rule.id} — for ${scope}` }),
      el('span', { class: 'meta', text: what }),
      el('span', { class: 'actions' }, el('button', {
        type: 'button', class: 'button', 'aria-label': `Remove fault rule ${rule.id}`, text: 'Remove',
        onclick: async () => {
          await act(`Fault rule ${rule.id} removed`, () => api('DELETE', `/faults/${rule.id}`));
          refreshSoon();
        },
      })));
  }));
}

// Only the fields of the chosen kind of rule are shown.
function showFaultFields() {
  const kind = $('add-fault').kind.value;
  for (const label of $('add-fault').querySelectorAll('[data-kinds]')) {
    label.hidden = !label.dataset.kinds.split(' ').includes(kind);
  }
}
$('add-fault').kind.addEventListener('change', showFaultFields);
showFaultFields();

$('add-fault').querySelector('[name=code]').replaceChildren(...CODES.map((c) => el('option', { value: c, text: c })));

$('add-fault').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const number = (name) => (form.get(name) === '' ? undefined : Number(form.get(name)));
  const rule = {};
  const kind = form.get('kind');
  if (kind === 'code') {
    rule.code = form.get('code');
    if (number('status') !== undefined) rule.status = number('status');
  } else if (kind === 'delay') {
    rule.delay_ms = number('delay_ms');
  } else if (kind === 'status') {
    rule.status = number('status');
    rule.body = form.get('body');
  } else {
    rule.hangup = true;
  }
  if (number('times') !== undefined) rule.times = number('times');
  if (number('probability') !== undefined) rule.probability = number('probability');
  const scope = form.get('scope');
  if (scope.startsWith('sub:')) rule.scope = { sub: scope.slice(4) };
  else if (scope.startsWith('sid:')) rule.scope = { sid: scope.slice(4) };
  await act('Fault rule added', () => api('POST', '/faults', rule));
  refreshSoon();
});

// QueryMesh ----------------------------------------------------------------------------------

function renderTables(answer) {
  const tree = el('div', { class: 'tree' });
  for (const catalog of answer.catalogs) {
    const c = el('details', { open: true, 'data-catalog': catalog.name }, el('summary', { text: `catalog ${catalog.name}` }));
    if (catalog.refused) c.append(el('p', { class: 'refused', text: `${catalog.refused.code}: ${catalog.refused.message}` }));
    if (!catalog.refused && !catalog.schemas.length) c.append(el('p', { class: 'hint', text: 'Nothing visible.' }));
    for (const schema of catalog.schemas) {
      const s = el('details', { 'data-schema': schema.name }, el('summary', { text: `schema ${schema.name} (${schema.tables.length} tables)` }));
      for (const table of schema.tables) {
        s.append(el('details', { 'data-table': `${catalog.name}.${schema.name}.${table.name}` },
          el('summary', { text: `${table.name} (${table.columns.length} columns)` }),
          el('table', { class: 'columns' },
            el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'column' }), el('th', { scope: 'col', text: 'type' }))),
            el('tbody', {}, table.columns.map((col) => el('tr', {}, el('td', {}, el('code', { text: col.name })), el('td', {}, el('code', { text: col.type }))))))));
      }
      c.append(s);
    }
    tree.append(c);
  }
  $('tables').replaceChildren(tree);
  $('tables-state').textContent = `As ${personName(answer.person.sub)} sees them, through QueryMesh's Trino protocol.`;
}

async function loadTables() {
  const person = $('querymesh-person').value;
  $('tables-state').textContent = 'Asking QueryMesh…';
  try {
    renderTables(await api('GET', `/querymesh/tables${person ? `?person=${encodeURIComponent(person)}` : ''}`));
  } catch (e) {
    $('tables-state').textContent = `${e.code}: ${e.message}`;
    $('tables').replaceChildren();
  }
}

$('see-as').addEventListener('submit', (event) => {
  event.preventDefault();
  loadTables();
});

// A table: `columns` as [heading, cell(row)] pairs; a cell is text or a node.
function table(label, columns, rows) {
  return el('table', { class: 'data', 'aria-label': label },
    el('thead', {}, el('tr', {}, columns.map(([heading]) => el('th', { scope: 'col', text: heading })))),
    el('tbody', {}, rows.map((row) => el('tr', {}, columns.map(([, cell]) => {
      const value = cell(row);
      return el('td', {}, value instanceof Node ? value : String(value ?? '—'));
    })))));
}

const code = (text) => el('code', { text });

// A rule's value as the file writes it: text and numbers as code, lists joined, a column
// list one column a line (its mask or `allow` beside its name).
function ruleValue(value) {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) return code(value.join(', '));
    return el('span', { class: 'lines' }, value.map((v) => {
      if (!v || typeof v !== 'object' || !('name' in v)) return el('span', {}, code(JSON.stringify(v)));
      const rest = Object.entries(v).filter(([k]) => k !== 'name')
        .flatMap(([k, x]) => [` ${k}: `, code(typeof x === 'string' ? x : JSON.stringify(x))]);
      return el('span', {}, code(v.name), ...rest);
    }));
  }
  if (typeof value === 'object') return code(JSON.stringify(value));
  return code(String(value));
}

// One section of the rules file (`catalogs`, `schemas`, `tables`, …) as a table: a row per
// rule, in the file's order (the first matching rule decides), a column per key used.
function rulesTable(section, rules) {
  const keys = [];
  for (const rule of rules) for (const k of Object.keys(rule ?? {})) if (!keys.includes(k)) keys.push(k);
  const rows = rules.map((rule, position) => ({ rule: rule ?? {}, position }));
  return table(`${section} rules`, [
    ['#', (r) => String(r.position)],
    ...keys.map((k) => [k, (r) => ruleValue(r.rule[k])]),
  ], rows);
}

function allowance(a) {
  const allowed = a.allowed === null ? 'unlimited' : String(a.allowed);
  return `${allowed} (${a.rule === 'default' ? 'default' : `rule ${a.rule}`})`;
}

function renderPolicies(policies) {
  const box = $('policies');
  const ac = policies.access_control;
  if (!ac) {
    box.replaceChildren(el('p', { class: 'hint', text: 'No access-control file: everyone may read everything.' }));
  } else {
    const parts = [el('p', {}, 'Access-control file ', code(ac.path))];
    if (ac.restrictions.length) {
      parts.push(table('What the rules take away', [
        ['Tables', (r) => el('span', {}, code(r.tables), ` (rule tables[${r.rule}])`)],
        ['For', (r) => `${r.for}: ${r.people.length ? r.people.map(personName).join(', ') : 'nobody now'}`],
        ['Takes away', (r) => r.effects.join(', ')],
      ], ac.restrictions));
    } else {
      parts.push(el('p', { class: 'hint', text: 'No rule filters rows or masks columns.' }));
    }
    const sections = ac.rules && typeof ac.rules === 'object' ? Object.entries(ac.rules) : [];
    const rules = el('details', { class: 'rules' }, el('summary', { text: 'The rules, as the file writes them' }));
    for (const [section, list] of sections) {
      if (!Array.isArray(list)) continue;
      rules.append(el('h4', { text: section }), el('div', { class: 'table-box' }, rulesTable(section, list)));
    }
    if (sections.length) parts.push(rules);
    box.replaceChildren(...parts);
  }
  const q = policies.querymesh_limits;
  box.append(el('h3', { text: 'QueryMesh per-person limits' }), table('QueryMesh per-person limits', [
    ['Setting', ([k]) => code(k)], ['Value', ([, v]) => String(v)],
  ], Object.entries(q)));
}

function renderLimits(limits) {
  const rules = limits.rules ?? [];
  $('limits').replaceChildren(
    el('p', {}, `At most ${limits.max_concurrent_queries} queries at once for everyone together.`),
    el('h4', { text: 'Default allowances' }),
    table('Default allowances', [
      ['Queries per minute', (d) => (d.queries_per_minute === 0 ? 'unlimited' : d.queries_per_minute)],
      ['Concurrent queries', (d) => d.concurrent_queries],
    ], [limits.default]),
    el('h4', { text: 'Rules' }),
    rules.length
      ? el('div', { class: 'table-box' }, table('Limit rules', [
        ['Name', (r) => r.name],
        ['Covers', (r) => [...(r.subs ?? []).map((x) => `sub ${personName(x)}`), ...(r.usernames ?? []).map((x) => `user ${x}`), ...(r.groups ?? []).map((x) => `group ${x}`)].join(', ')],
        ['Queries per minute', (r) => r.queries_per_minute ?? '—'],
        ['Concurrent queries', (r) => r.concurrent_queries ?? '—'],
      ], rules))
      : el('p', { class: 'hint', text: 'No rules: everyone gets the default.' }),
    el('h4', { text: 'What each person gets now' }),
    el('div', { class: 'table-box' }, table('Effective limits', [
      ['Person', (p) => personName(p.sub)],
      ['Queries per minute', (p) => allowance(p.queries_per_minute)],
      ['Concurrent queries', (p) => allowance(p.concurrent_queries)],
    ], limits.effective)));
}

// Read from the file and the limits as configured: nothing here queries as anyone.
async function loadPolicies() {
  const policies = await api('GET', '/querymesh/policies');
  if (changed('policies', [policies, state.people])) renderPolicies(policies);
  // The broker's limits, when this sandbox has the endpoint.
  try {
    const limits = await api('GET', '/limits');
    if (changed('limits', [limits, state.people])) renderLimits(limits);
    $('limits-part').hidden = false;
  } catch {
    $('limits-part').hidden = true;
  }
}

// Refreshing ---------------------------------------------------------------------------------

let refreshTimer = null;
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 120);
}

async function refresh() {
  try {
    await loadPeople();
    await Promise.all([loadSessions(), loadSwitches(), loadKeys(), loadClock(), loadFaults(), loadLatestIdentity(), loadPolicies()]);
  } catch (e) {
    say(`The test-control API did not answer: ${e.message}`, true);
  }
}

async function start() {
  try {
    state.endpoints = await api('GET', '/endpoints');
    $('open-app').href = state.endpoints.edge;
  } catch (e) {
    say(`The test-control API did not answer: ${e.message}`, true);
  }
  // Nothing here acts as a person: the tables a person sees are listed only when asked.
  await refresh();
  follow({});
  document.body.dataset.ready = 'true';
}

start();
