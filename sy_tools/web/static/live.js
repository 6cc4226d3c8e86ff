// Talking to the server: JSON requests, and the live state pushed as server-sent events.  A page
// that loses its connection (phone asleep, Wi-Fi gone, server restarted) reconnects by itself
// and is sent the game as it stands: the server's files are the truth.

/** GET ``url`` as JSON; a refusal throws an Error whose message is the server's. */
export async function getJSON(url) {
  return answer(await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" }));
}

/** POST ``body`` as JSON to ``url``. */
export async function postJSON(url, body) {
  return answer(await fetch(url, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body), cache: "no-store" }));
}

async function answer(response) {
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const err = new Error((data && data.message) || `the server answered ${response.status}`);
    err.code = data && data.error;
    err.status = response.status;
    throw err;
  }
  return data;
}

/** Follow the event stream at ``url``: ``onState(state)`` for every state pushed,
 * ``onLink(up)`` when the connection comes and goes. */
export function follow(url, onState, onLink) {
  let source = null, timer = null;
  // The server pings every ``every`` seconds: a connection silent for three of them is dead even
  // when the browser still calls it open (a laptop asleep overnight, Wi-Fi gone without a word).
  let heard = Date.now(), every = 15;
  const open = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (source) source.close();
    heard = Date.now();
    source = new EventSource(url);
    source.addEventListener("open", () => { heard = Date.now(); onLink(true); });
    source.addEventListener("ping", (e) => {
      heard = Date.now();
      const s = Number(e.data);
      if (s > 0) every = s;
    });
    source.addEventListener("state", (e) => {
      heard = Date.now();
      onLink(true);
      onState(JSON.parse(e.data));
    });
    source.addEventListener("error", () => {
      onLink(false);
      if (source.readyState === EventSource.CLOSED && !timer) timer = setTimeout(open, 2000);
    });
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) open();
  });
  window.addEventListener("online", open);
  setInterval(() => {
    if (source && source.readyState === EventSource.OPEN && Date.now() - heard > 3 * every * 1000 + 2000) {
      onLink(false);
      open();
    }
  }, 1000);
  open();
  return { reopen: open };
}
