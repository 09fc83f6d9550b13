import { createHash } from 'node:crypto';

/**
 * The dashboard at `GET /__admin/` (dashboard.ts serves it): one HTML page with its style and
 * script inline, no framework, nothing from another origin, under a Content-Security-Policy that
 * lets only this script and style run (by their hashes) and the page talk only to its own origin.
 *
 * The page holds no data: its script reads the admin API (the journal, polled with its cursor;
 * config; faults) and changes it with JSON requests, as any admin client. With `--admin-token`
 * it asks for the token and sends it as a bearer header, kept in the page's memory only (never in
 * a URL, nor in storage). Everything shown is set as text (`textContent`), never as HTML: a
 * request or answer that holds markup is shown as the characters it holds.
 */

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de; --accent: #0550ae; --bad: #b42318; --good: #1a7f37; --warn: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22; --line: #30363d; --accent: #58a6ff; --bad: #f85149; --good: #3fb950; --warn: #d29922; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: baseline; padding: 0.6rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { font-size: 1.1rem; margin: 0; }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.3fr) minmax(16rem, 0.8fr); gap: 0.75rem; padding: 0.75rem; align-items: start; }
@media (max-width: 1100px) { main { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } #side { grid-column: 1 / -1; } }
section { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem 0.75rem; background: var(--bg); min-width: 0; }
h2 { font-size: 1rem; margin: 0.25rem 0 0.5rem; }
h3 { font-size: 0.9rem; margin: 0.75rem 0 0.25rem; }
.muted { color: var(--muted); }
form.row { display: flex; flex-wrap: wrap; gap: 0.4rem 0.6rem; align-items: end; margin-bottom: 0.5rem; }
label { display: flex; flex-direction: column; font-size: 0.8rem; color: var(--muted); gap: 0.1rem; }
label.check { flex-direction: row; align-items: center; gap: 0.3rem; color: var(--fg); }
input { font: inherit; padding: 0.2rem 0.35rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); width: 7.5rem; }
input[type=checkbox] { width: auto; }
select { font: inherit; padding: 0.2rem 0.35rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
button { font: inherit; padding: 0.25rem 0.7rem; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); color: var(--fg); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--bad); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#requests { list-style: none; margin: 0; padding: 0; max-height: calc(100vh - 12rem); overflow: auto; border-top: 1px solid var(--line); }
#requests li { border-bottom: 1px solid var(--line); }
#requests button { display: grid; grid-template-columns: auto 4.1rem minmax(0, 1fr) auto; gap: 0.4rem; align-items: start; width: 100%; text-align: left; border: 0; border-radius: 0; background: transparent; padding: 0.3rem 0.25rem; }
#requests button[aria-current=true] { background: var(--panel); box-shadow: inset 3px 0 0 var(--accent); }
/* A request target wraps (at any character: paths have no spaces) over up to five lines, so that its ids show whole; longer ones are clamped. */
#requests .target { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 5; line-clamp: 5; overflow: hidden; word-break: break-all; font-family: ui-monospace, monospace; font-size: 0.82rem; }
#requests .what { display: flex; flex-direction: column; gap: 0.15rem; min-width: 0; }
.when, .status, #requests .muted { white-space: nowrap; }
/* Who answered a request (the mock, or the backend with its time), and the validating proxy's verdict on it. */
.badges { display: flex; flex-wrap: wrap; gap: 0.3rem; min-width: 0; }
.badge { display: inline-block; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; border: 1px solid var(--line); border-radius: 999px; padding: 0 0.45rem; font-size: 0.72rem; line-height: 1.35; color: var(--muted); }
.badge.backend { border-color: var(--accent); color: var(--accent); }
.badge.failed, .badge.broken { border-color: var(--bad); color: var(--bad); font-weight: 600; }
.badge.held { border-color: var(--good); color: var(--good); }
table.history .target { overflow-wrap: anywhere; }
table.history .request { display: block; word-break: break-all; font-family: ui-monospace, monospace; font-size: 0.78rem; }
.reason { display: block; color: var(--bad); font-weight: 600; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
.status-fact .reason { display: inline; margin-left: 0.6rem; }
.status { font-weight: 600; text-align: right; }
.s2 { color: var(--good); } .s3 { color: var(--accent); } .s4 { color: var(--warn); } .s5 { color: var(--bad); }
dl { display: grid; grid-template-columns: fit-content(45%) minmax(0, 1fr); gap: 0.1rem 0.75rem; margin: 0; }
dt { color: var(--muted); overflow-wrap: anywhere; }
dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: 0.82rem; }
pre { margin: 0; padding: 0.4rem; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; max-height: 22rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.8rem; }
.detail-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(12rem, 0.7fr); grid-template-rows: auto 1fr; grid-template-areas: "facts side" "rest side"; gap: 0.75rem; align-items: start; }
/* Narrower, one column: the boxes (rule violations, page arithmetic) right under the request's facts, above its headers and bodies. */
@media (max-width: 1400px) { .detail-grid { grid-template-columns: minmax(0, 1fr); grid-template-rows: none; grid-template-areas: "facts" "side" "rest"; } }
.detail-facts { grid-area: facts; min-width: 0; }
.detail-side { grid-area: side; display: flex; flex-direction: column; gap: 0.75rem; min-width: 0; }
.detail-rest { grid-area: rest; min-width: 0; }
.page { border: 1px solid var(--accent); border-radius: 6px; padding: 0.4rem 0.6rem; }
.violations { border: 2px solid var(--bad); border-radius: 6px; padding: 0.4rem 0.6rem; }
.violations h3 { color: var(--bad); margin-top: 0.25rem; }
.violation { border-top: 1px solid var(--line); padding: 0.35rem 0 0.25rem; }
.violation:first-of-type { border-top: 0; }
.violation .rule { font-family: ui-monospace, monospace; font-weight: 600; overflow-wrap: anywhere; }
.violation p { margin: 0.1rem 0 0.25rem; }
.s-bad { color: var(--bad); font-weight: 600; } .s-good { color: var(--good); }
#message { margin: 0 0 0 auto; }
#message.error { color: var(--bad); }
table { border-collapse: collapse; width: 100%; font-size: 0.82rem; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 0.15rem 0.3rem; vertical-align: top; overflow-wrap: anywhere; }
#token-form[hidden], [hidden] { display: none !important; }
#token-form { border: 2px solid var(--warn); border-radius: 6px; margin: 0.75rem 0.75rem 0; padding: 0.5rem 0.75rem; }
#token { width: 20rem; }
`;

// Plain ES5-style script, so that it needs no build; written without template literals (this file holds it in one).
const SCRIPT = String.raw`
(function () {
  'use strict';
  var ADMIN = '/__admin';
  var KEEP = 500;
  var state = { proxy: false, token: null, cursor: null, entries: [], selected: null, paused: false, filters: {}, generation: 0, polling: false, capacity: 0 };
  function $(id) { return document.getElementById(id); }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function say(text, isError) {
    var box = $('message');
    box.textContent = text;
    box.className = isError ? 'error' : '';
  }
  function Failure(status, message) { this.status = status; this.message = message; }

  function api(method, path, body) {
    var headers = { Accept: 'application/json' };
    if (state.token) headers.Authorization = 'Bearer ' + state.token;
    var init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit' };
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body || {});
    }
    return fetch(ADMIN + path, init).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (res.status === 401) askToken();
        if (!res.ok) throw new Failure(res.status, (data && data.message) || ('HTTP ' + res.status));
        return data;
      });
    });
  }
  function failed(error) {
    say(error && error.message ? error.message : String(error), true);
  }

  // --- the token (--admin-token): asked for, kept in memory, sent as a bearer header ---
  function askToken() {
    if (!$('token-form').hidden) return;
    $('token-form').hidden = false;
    $('token').focus();
    say('This mock needs its admin token (--admin-token).', true);
  }
  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    state.token = $('token').value.trim() || null;
    $('token').value = '';
    $('token-form').hidden = true;
    say('Token set for this page.');
    refreshAll();
  });

  // --- the journal, polled with its cursor ---
  function journalPath() {
    var params = new URLSearchParams();
    if (state.cursor) params.set('since', state.cursor);
    Object.keys(state.filters).forEach(function (name) { if (state.filters[name]) params.set(name, state.filters[name]); });
    var query = params.toString();
    return '/journal' + (query ? '?' + query : '');
  }
  function keyOf(entry) { return (entry.worker || 0) + ':' + entry.seq; }
  function poll() {
    if (state.polling || state.paused) return;
    state.polling = true;
    var generation = state.generation;
    api('GET', journalPath()).then(function (journal) {
      if (generation !== state.generation) return;
      state.cursor = journal.cursor;
      state.capacity = journal.capacity;
      $('journal-facts').textContent = journal.recorded + ' recorded, ' + journal.capacity + ' kept, bodies up to ' + journal.bodyBytes + ' bytes';
      if (journal.entries.length > 0) {
        var known = new Set();
        state.entries.forEach(function (entry) { known.add(keyOf(entry)); });
        journal.entries.forEach(function (entry) { if (!known.has(keyOf(entry))) state.entries.push(entry); });
        if (state.entries.length > KEEP) state.entries = state.entries.slice(state.entries.length - KEEP);
        renderRequests();
        renderHistory();
      }
      $('live').textContent = 'live, updated ' + clock(Date.now());
    }).catch(function (error) {
      $('live').textContent = 'not updated: ' + (error && error.message ? error.message : error);
    }).then(function () { state.polling = false; });
  }
  function restartJournal() {
    state.generation++;
    state.cursor = null;
    state.entries = [];
    state.selected = null;
    state.polling = false;
    renderRequests();
    renderDetail();
    renderHistory();
    poll();
  }

  function clock(time) { return new Date(time).toLocaleTimeString([], { hour12: false }); }

  // --- who answered (the mock, or the backend: serve --backend, proxy) and the proxy's check ---
  function isBackend(entry) { return entry.answeredBy === 'backend'; }
  function backendError(entry) { return isBackend(entry) && entry.backend && entry.backend.error ? String(entry.backend.error) : null; }
  function ms(value) { return (typeof value === 'number' ? value : Number(value)) + ' ms'; }
  function originText(entry) {
    if (!isBackend(entry)) return 'answered by the mock';
    var error = backendError(entry);
    if (error !== null) return 'the backend failed' + (entry.backend ? ' after ' + ms(entry.backend.ms) : '') + ': ' + error;
    return 'answered by the backend' + (entry.backend ? ' in ' + ms(entry.backend.ms) : '');
  }
  // How many rules the answer broke: 'found' counts them all, 'violations' holds those the journal kept.
  function violationCount(check) { return !check ? 0 : typeof check.found === 'number' ? check.found : check.violations.length; }
  function checkText(check) {
    var n = violationCount(check);
    return n === 0 ? 'checked: every rule held' : 'checked: ' + n + (n === 1 ? ' rule broken' : ' rules broken');
  }
  function badges(entry) {
    var box = el('span', 'badges');
    var error = backendError(entry);
    var origin;
    if (!isBackend(entry)) origin = el('span', 'badge origin mock', 'mock');
    else if (error !== null) origin = el('span', 'badge origin backend failed', 'backend failed: ' + error);
    else origin = el('span', 'badge origin backend', 'backend' + (entry.backend ? ' ' + ms(entry.backend.ms) : ''));
    origin.title = originText(entry);
    box.appendChild(origin);
    if (entry.check) {
      var n = violationCount(entry.check);
      var mark = el('span', 'badge checked ' + (n === 0 ? 'held' : 'broken'), n === 0 ? '\u2713 checked' : '\u2717 ' + n + (n === 1 ? ' violation' : ' violations'));
      mark.title = checkText(entry.check);
      box.appendChild(mark);
    }
    return box;
  }
  function statusClass(status) { return 's' + String(status).charAt(0); }
  function renderRequests() {
    var list = $('requests');
    clear(list);
    for (var i = state.entries.length - 1; i >= 0; i--) {
      var entry = state.entries[i];
      var item = el('li');
      var button = el('button');
      button.type = 'button';
      button.setAttribute('data-key', keyOf(entry));
      button.setAttribute('data-url', entry.url);
      if (state.selected === keyOf(entry)) button.setAttribute('aria-current', 'true');
      button.appendChild(el('span', 'muted', clock(entry.time)));
      button.appendChild(el('span', '', entry.method));
      var what = el('span', 'what');
      what.appendChild(el('span', 'target', entry.url));
      what.appendChild(badges(entry));
      button.appendChild(what);
      button.appendChild(el('span', 'status ' + statusClass(entry.status), entry.status));
      button.setAttribute('aria-label', entry.method + ' ' + entry.url + ', status ' + entry.status + ', ' + originText(entry) + (entry.check ? ', ' + checkText(entry.check) : ''));
      item.appendChild(button);
      list.appendChild(item);
    }
    $('empty').hidden = state.entries.length > 0;
  }
  $('requests').addEventListener('click', function (event) {
    var button = event.target.closest('button[data-key]');
    if (!button) return;
    state.selected = button.getAttribute('data-key');
    var current = $('requests').querySelectorAll('button[aria-current]');
    for (var i = 0; i < current.length; i++) current[i].removeAttribute('aria-current');
    button.setAttribute('aria-current', 'true');
    renderDetail();
  });

  // Names here are the client's (headers, query keys): '__proto__' or 'constructor' are names like any
  // other, so they are kept in Maps and read as own properties, never through a plain object's keys.
  function ownValue(object, name) { return object && Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined; }
  function ownPairs(object) { return object ? Object.keys(object).map(function (name) { return [name, object[name]]; }) : []; }
  function grouped(list) {
    var byName = new Map();
    list.forEach(function (pair) { byName.set(pair[0], (byName.get(pair[0]) || []).concat(pair[1])); });
    return Array.from(byName.entries());
  }
  function pairs(title, list) {
    var box = el('div');
    box.appendChild(el('h3', '', title));
    if (list.length === 0) { box.appendChild(el('p', 'muted', 'none')); return box; }
    var dl = el('dl');
    list.forEach(function (pair) {
      var value = pair[1];
      dl.appendChild(el('dt', '', pair[0]));
      dl.appendChild(el('dd', '', Array.isArray(value) ? value.join(', ') : value));
    });
    box.appendChild(dl);
    return box;
  }
  // Why the mock answered as it did (x-store-listing-kit-reason: the plugins' empty 500s carry it), or null.
  function reasonOf(entry) {
    var value = ownValue(entry.response && entry.response.headers, 'x-store-listing-kit-reason');
    if (value === undefined || value === null) return null;
    return Array.isArray(value) ? value.join('; ') : String(value);
  }
  function bodyBox(title, body) {
    var box = el('div');
    box.appendChild(el('h3', '', title));
    if (!body) { box.appendChild(el('p', 'muted', 'none')); return box; }
    var text = body.text;
    if (!body.truncated) {
      try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { text = body.text; }
    }
    box.appendChild(el('p', 'muted', body.bytes + ' bytes' + (body.truncated ? ', cut: the first ' + new Blob([body.text]).size + ' shown' : '')));
    box.appendChild(el('pre', 'body', text));
    return box;
  }
  function pageBox(page) {
    var box = el('aside', 'page');
    box.setAttribute('aria-label', 'page arithmetic');
    box.appendChild(el('h3', '', 'Page arithmetic'));
    if (!page) { box.appendChild(el('p', 'muted', 'not a listing answer')); return box; }
    var list = el('dl');
    [['rule', page.rule], ['matching', page.matching], ['page size', page.size === null ? 'all (paging ignored)' : page.size], ['start', page.start === null ? '-' : page.start],
     ['count', page.count], ['totalPages', page.totalPages], ['currentPage', page.currentPage], ['nextPage', page.nextPage], ['prevPage', page.prevPage]].forEach(function (row) {
      list.appendChild(el('dt', '', row[0]));
      list.appendChild(el('dd', '', row[1] === null ? 'null' : row[1]));
    });
    box.appendChild(list);
    box.appendChild(el('p', 'muted', page.formula));
    return box;
  }
  // A value of a broken rule as JSON; a key left out means absent (journal-entry.ts ViolationView).
  // JSON escapes control characters; what it leaves raw that would reorder or hide text (bidi,
  // zero-width, C1) is escaped too, as lib/quote.ts does for every other verdict.
  function shownValue(violation, name) {
    if (!Object.prototype.hasOwnProperty.call(violation, name)) return '(absent)';
    var text = JSON.stringify(violation[name]);
    return (text === undefined ? String(violation[name]) : text).replace(/[-\p{Cf}\p{Zl}\p{Zp}]/gu, function (c) {
      var out = '';
      for (var i = 0; i < c.length; i++) out += '\\u' + ('000' + c.charCodeAt(i).toString(16)).slice(-4);
      return out;
    });
  }
  function violationsBox(check) {
    var box = el('aside', 'violations');
    box.setAttribute('aria-label', 'rule violations');
    var list = check.violations;
    var found = violationCount(check);
    box.appendChild(el('h3', '', found === 1 ? '1 rule broken' : found + ' rules broken'));
    if (list.length < found) box.appendChild(el('p', 'muted kept', list.length === 0 ? 'None kept: the journal keeps them within its body cap (--journal-body-bytes).' : 'The first ' + list.length + ' shown: the journal keeps them within its body cap (--journal-body-bytes).'));
    list.forEach(function (violation) {
      var item = el('div', 'violation');
      item.appendChild(el('div', 'rule', violation.rule));
      item.appendChild(el('p', '', violation.message));
      var facts = el('dl');
      [['field', violation.field === null || violation.field === undefined ? '-' : violation.field], ['expected', shownValue(violation, 'expected')], ['actual', shownValue(violation, 'actual')]]
        .concat(violation.note ? [['note', violation.note]] : []).forEach(function (row) {
          facts.appendChild(el('dt', '', row[0]));
          facts.appendChild(el('dd', row[0], row[1]));
        });
      item.appendChild(facts);
      box.appendChild(item);
    });
    return box;
  }
  function renderDetail() {
    var box = $('detail');
    clear(box);
    var entry = null;
    state.entries.forEach(function (candidate) { if (keyOf(candidate) === state.selected) entry = candidate; });
    if (!entry) { box.appendChild(el('p', 'muted', 'Choose a request to see it whole.')); return; }
    var grid = el('div', 'detail-grid');
    var main = el('div', 'detail-rest');
    var facts = el('dl', 'detail-facts');
    var reason = reasonOf(entry);
    var origin = isBackend(entry) ? (backendError(entry) !== null ? 'the backend, which failed' + (entry.backend ? ' after ' + ms(entry.backend.ms) : '') + ': ' + backendError(entry) : 'the backend' + (entry.backend ? ', in ' + ms(entry.backend.ms) : '')) : 'the mock';
    [['request', entry.method + ' ' + entry.url], ['status', entry.status], ['answered by', origin]]
      .concat(entry.check ? [['check', checkText(entry.check)]] : [])
      .concat([['time', entry.time], ['duration', entry.durationMs + ' ms'], ['customer', entry.customer === null ? 'none' : entry.customer]])
      .concat(entry.worker ? [['worker', entry.worker]] : []).forEach(function (row) {
        facts.appendChild(el('dt', '', row[0]));
        var className = row[0] === 'status' ? 'status-fact' : row[0] === 'answered by' ? 'origin-fact' + (backendError(entry) !== null ? ' s-bad' : '') : row[0] === 'check' ? 'check-fact ' + (violationCount(entry.check) === 0 ? 's-good' : 's-bad') : '';
        var dd = el('dd', className, row[1]);
        if (row[0] === 'status' && reason !== null) {
          dd.textContent = '';
          dd.appendChild(el('span', 'status ' + statusClass(entry.status), entry.status));
          dd.appendChild(el('strong', 'reason', reason));
        }
        facts.appendChild(dd);
      });
    main.appendChild(pairs('Query', grouped(entry.query)));
    main.appendChild(pairs('Request headers' + (entry.request.headersCut ? ' (cut)' : ''), ownPairs(entry.request.headers)));
    if (entry.request.body) main.appendChild(bodyBox('Request body', entry.request.body));
    main.appendChild(pairs('Answer headers', ownPairs(entry.response.headers)));
    main.appendChild(bodyBox('Answer body', entry.response.body));
    var side = el('div', 'detail-side');
    if (violationCount(entry.check) > 0) side.appendChild(violationsBox(entry.check));
    // The page arithmetic is the mock's own (a backend's answer has none: the proxy's check judges it instead; the proxy serves no listing).
    if (entry.page || (!isBackend(entry) && !state.proxy)) side.appendChild(pageBox(entry.page));
    // In this order, so that in one column (narrower screens) the boxes come right under the facts.
    grid.appendChild(facts);
    grid.appendChild(side);
    grid.appendChild(main);
    box.appendChild(grid);
  }

  // --- history per customer: writes (non-GET under /store) and provider-state changes ---
  function renderHistory() {
    // By customer id: a Map, since an id is the client's ('constructor' is one).
    var writes = new Map();
    var states = [];
    state.entries.forEach(function (entry) {
      if (entry.path.indexOf('/__admin/provider-states') === 0) states.push(entry);
      else if (entry.path.indexOf('/store') === 0 && ['GET', 'HEAD', 'OPTIONS'].indexOf(entry.method) < 0) {
        var who = entry.customer === null ? '(no customer)' : entry.customer;
        if (!writes.has(who)) writes.set(who, []);
        writes.get(who).push(entry);
      }
    });
    var box = $('writes');
    clear(box);
    if (writes.size === 0) box.appendChild(el('p', 'muted', 'No writes among the requests shown.'));
    writes.forEach(function (entries, who) {
      var group = el('div', 'customer');
      group.setAttribute('data-customer', who);
      group.appendChild(el('h3', '', who));
      var table = el('table', 'history');
      entries.forEach(function (entry) {
        var row = el('tr');
        row.appendChild(el('td', 'muted when', clock(entry.time)));
        var target = el('td', 'target');
        target.appendChild(el('span', 'request', entry.method + ' ' + entry.url));
        var reason = reasonOf(entry);
        if (reason !== null) target.appendChild(el('strong', 'reason', reason));
        row.appendChild(target);
        row.appendChild(el('td', 'status ' + statusClass(entry.status), entry.status));
        table.appendChild(row);
      });
      group.appendChild(table);
      box.appendChild(group);
    });
    var list = $('states');
    clear(list);
    if (states.length === 0) list.appendChild(el('p', 'muted', 'No provider-state changes among the requests shown.'));
    var table = el('table', 'history');
    states.forEach(function (entry) {
      var said = '';
      try { var body = JSON.parse(entry.request.body.text); said = (body.action || 'setup') + ' ' + (body.state || '') + (body.params ? ' ' + JSON.stringify(body.params) : ''); } catch (e) { said = entry.method === 'DELETE' ? 'release' : ''; }
      var row = el('tr');
      row.appendChild(el('td', 'muted when', clock(entry.time)));
      row.appendChild(el('td', 'target', entry.method + ' ' + said));
      row.appendChild(el('td', 'status ' + statusClass(entry.status), entry.status));
      table.appendChild(row);
    });
    if (states.length > 0) list.appendChild(table);
  }

  // --- server, dataset, faults ---
  // Where each customer's wishlists (and, from a backend, the reviews) come from (docs/writes.md, docs/operations.md).
  function customersData(server, current) {
    var plugin = server.pluginData;
    if (plugin && plugin.source === 'backend') return 'the backend\u2019s: each customer\u2019s own, read on their first request (' + plugin.customersRead + (plugin.customersRead === 1 ? ' customer' : ' customers') + ' read); writes stay in the mock';
    if (plugin && plugin.plugins === undefined && plugin.source !== 'generated') return 'the backend\u2019s, once a first request of a customer reads them (none read yet)';
    var why = plugin ? (plugin.plugins === false ? ' (the backend has no plugin routes)' : ' (--plugin-data generated)') : '';
    return (current.recordedIn ? 'recorded' : 'generated') + why + ': each customer sees their own wishlists, those the dataset names as theirs or one picked by their id';
  }
  function setValue(id, value) { $(id).value = value === null || value === undefined ? '' : String(value); }
  function renderConfig(config) {
    var server = config.server || {};
    // The validating proxy serves no dataset: its reseed, reset and provider states are not shown (its admin API refuses them).
    var proxy = server.mode === 'proxy';
    state.proxy = proxy;
    $('title').textContent = proxy ? 'store-listing-kit validating proxy' : 'store-listing-kit mock';
    $('dataset-section').hidden = proxy;
    $('states-part').hidden = proxy;
    $('state-hold').hidden = proxy;
    $('faults-scope').hidden = !server.backend;
    $('faults-scope').textContent = proxy
      ? 'They act on every request passed to the backend: latency before it is sent, an error answered in its place (the backend never sees it).'
      : 'They act on the requests passed to the backend too: latency before it is sent, an error answered in its place (the backend never sees it).';
    $('server-facts').textContent = (server.url || '') + ' · dialect ' + (server.dialect || '?') + (server.backend ? (server.mode === 'proxy' ? ' · validating proxy of ' : ' · backend ') + server.backend : '') + ' · ' + server.workers + (server.workers === 1 ? ' process' : ' workers') + ' · admin: ' + config.admin.access;
    var dataset = config.dataset;
    var current = dataset.current;
    var facts = $('dataset-facts');
    clear(facts);
    [['version', dataset.version], ['source', current.source + (current.file ? ' ' + current.file : '')], ['seed', current.seed === undefined ? '-' : current.seed],
     ['reviews', current.reviews], ['products', current.products], ['wishlists', current.wishlists], ['wishlist items', current.wishlistItems], ['dialect', server.dialect]]
      .concat(current.catalogue ? [['catalogue', current.catalogue.products + ' products, ' + current.catalogue.variants + ' variants from ' + current.catalogue.from]] : [])
      .concat(server.dialect === 'alphabite' ? [['customers\u2019 data', customersData(server, current)]] : []).forEach(function (row) {
      facts.appendChild(el('dt', '', row[0]));
      facts.appendChild(el('dd', '', row[1]));
    });
    var generation = dataset.generation || {};
    ['seed', 'reviews', 'products', 'wishlists', 'maxItems'].forEach(function (name) { $('reseed-' + name).placeholder = generation[name] === undefined ? '' : String(generation[name]); });
    var hold = config.providerStates && config.providerStates.hold;
    $('state-hold').textContent = hold ? 'held by run ' + hold.run + ': ' + hold.state : 'no run holds a provider state';
    renderFaults(config.faults);
  }
  function renderFaults(faults) {
    var latency = faults.latency ? (faults.latency.min === faults.latency.max ? String(faults.latency.min) : faults.latency.min + '-' + faults.latency.max) : '';
    $('faults-facts').textContent = faults.active ? 'on: latency ' + (latency || 'none') + ' ms, error rate ' + faults.errorRate + ' (status ' + faults.errorStatus + '), per-request headers ' + (faults.headers ? 'on' : 'off') : 'off';
    $('faults-facts').className = faults.active ? 's5' : 'muted';
    if (document.activeElement && $('faults-form').contains(document.activeElement)) return;
    setValue('fault-latency', latency);
    setValue('fault-rate', faults.errorRate);
    setValue('fault-status', faults.errorStatus);
    $('fault-headers').checked = Boolean(faults.headers);
  }
  function refreshConfig() { return api('GET', '/config').then(renderConfig).catch(failed); }
  function refreshAll() { refreshConfig(); restartJournal(); }

  $('faults-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var body = { latency: $('fault-latency').value.trim() || null, errorRate: Number($('fault-rate').value || 0), errorStatus: Number($('fault-status').value || 500), headers: $('fault-headers').checked };
    api('PUT', '/faults', body).then(function (faults) { renderFaults(faults); say('Faults set: ' + (faults.active ? 'on' : 'off') + '.'); }).catch(failed);
  });
  $('faults-off').addEventListener('click', function () {
    api('DELETE', '/faults').then(function (faults) { renderFaults(faults); say('Faults off.'); }).catch(failed);
  });
  $('reseed-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var body = {};
    ['seed', 'reviews', 'products', 'wishlists', 'maxItems'].forEach(function (name) {
      var raw = $('reseed-' + name).value.trim();
      if (raw !== '') body[name] = Number(raw);
    });
    say('Reseeding...');
    api('POST', '/dataset', body).then(function (answer) { say('Dataset version ' + answer.version + ' served (seed ' + answer.generation.seed + ').'); refreshConfig(); }).catch(failed);
  });
  $('reset').addEventListener('click', function () {
    api('POST', '/reset').then(function (answer) { say('Back to the initial dataset (version ' + answer.version + ').'); refreshConfig(); }).catch(failed);
  });
  $('filter-form').addEventListener('submit', function (event) {
    event.preventDefault();
    applyFilters();
  });
  function applyFilters() {
    state.filters = { path: $('filter-path').value.trim(), status: $('filter-status').value.trim(), customer: $('filter-customer').value.trim(), by: $('filter-by').value, violations: $('filter-violations').checked ? '1' : '' };
    restartJournal();
  }
  $('filter-by').addEventListener('change', applyFilters);
  $('filter-violations').addEventListener('change', applyFilters);
  $('pause').addEventListener('click', function () {
    state.paused = !state.paused;
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    $('pause').setAttribute('aria-pressed', state.paused ? 'true' : 'false');
    if (!state.paused) poll();
  });
  $('clear-journal').addEventListener('click', function () {
    api('DELETE', '/journal').then(function (answer) { say(answer.cleared + ' journal entries cleared.'); restartJournal(); }).catch(failed);
  });

  refreshAll();
  setInterval(poll, 250);
  setInterval(function () { if (!state.paused) refreshConfig(); }, 5000);
})();
`;

const BODY = `
<header>
  <h1 id="title">store-listing-kit mock</h1>
  <span id="server-facts" class="muted">loading…</span>
  <span id="live" class="muted"></span>
  <p id="message" role="status" aria-live="polite"></p>
</header>
<form id="token-form" class="row" hidden>
  <label for="token">Admin token (sent as a bearer header, kept in this page only)<input id="token" type="password" autocomplete="off" required></label>
  <button type="submit" class="primary">Use token</button>
</form>
<main>
  <section aria-labelledby="requests-title">
    <h2 id="requests-title">Requests</h2>
    <form id="filter-form" class="row" aria-label="filter the journal">
      <label for="filter-path">Path contains<input id="filter-path" placeholder="/store/reviews"></label>
      <label for="filter-status">Status<input id="filter-status" placeholder="200 or 4xx"></label>
      <label for="filter-customer">Customer<input id="filter-customer" placeholder="cus_..."></label>
      <label for="filter-by">Answered by<select id="filter-by"><option value="">mock or backend</option><option value="mock">the mock</option><option value="backend">the backend</option></select></label>
      <label class="check" for="filter-violations"><input id="filter-violations" type="checkbox"> rule violations only</label>
      <button type="submit">Filter</button>
      <button type="button" id="pause" aria-pressed="false">Pause</button>
      <button type="button" id="clear-journal" class="danger">Clear journal</button>
    </form>
    <p id="journal-facts" class="muted"></p>
    <p id="empty" class="muted">No requests yet: they appear here as they arrive.</p>
    <ul id="requests" aria-label="requests, newest first"></ul>
  </section>
  <section aria-labelledby="detail-title">
    <h2 id="detail-title">Request and answer</h2>
    <div id="detail"><p class="muted">Choose a request to see it whole.</p></div>
  </section>
  <div id="side">
    <section aria-labelledby="faults-title">
      <h2 id="faults-title">Faults and latency</h2>
      <p id="faults-facts" class="muted"></p>
      <form id="faults-form" class="row">
        <label for="fault-latency">Latency ms (300 or 100-400)<input id="fault-latency" placeholder="none"></label>
        <label for="fault-rate">Error rate (0-1)<input id="fault-rate" type="number" min="0" max="1" step="0.01"></label>
        <label for="fault-status">Error status<input id="fault-status" type="number" min="400" max="599"></label>
        <label class="check" for="fault-headers"><input id="fault-headers" type="checkbox"> per-request headers</label>
        <button type="submit" id="faults-apply" class="primary">Apply faults</button>
        <button type="button" id="faults-off">Turn off</button>
      </form>
      <p class="muted">Apply sets these and keeps the rest (the fault seed); Turn off clears them all.</p>
      <p id="faults-scope" class="muted" hidden></p>
    </section>
    <section id="dataset-section" aria-labelledby="dataset-title" hidden>
      <h2 id="dataset-title">Dataset</h2>
      <dl id="dataset-facts"></dl>
      <form id="reseed-form" class="row" aria-label="reseed">
        <label for="reseed-seed">Seed<input id="reseed-seed" type="number" min="0"></label>
        <label for="reseed-reviews">Reviews<input id="reseed-reviews" type="number" min="0"></label>
        <label for="reseed-products">Products<input id="reseed-products" type="number" min="1"></label>
        <label for="reseed-wishlists">Wishlists<input id="reseed-wishlists" type="number" min="0"></label>
        <label for="reseed-maxItems">Items per wishlist<input id="reseed-maxItems" type="number" min="0"></label>
        <button type="submit" id="reseed" class="primary">Reseed</button>
        <button type="button" id="reset" class="danger">Reset to initial data</button>
      </form>
    </section>
    <section aria-labelledby="history-title">
      <h2 id="history-title">History per customer</h2>
      <p id="state-hold" class="muted" hidden></p>
      <h3>Writes</h3>
      <div id="writes"></div>
      <div id="states-part" hidden>
        <h3>Provider-state changes</h3>
        <div id="states"></div>
      </div>
    </section>
  </div>
</main>
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page, and the Content-Security-Policy that lets exactly its script and style run. */
export function dashboardPage(): { html: string; csp: string } {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>store-listing-kit mock: dashboard</title>
<style>${STYLE}</style>
</head>
<body>${BODY}<script>${SCRIPT}</script>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "connect-src 'self'",
    // The icon is empty (data:), so that the browser asks the mock for no /favicon.ico.
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
