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
  const open = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (source) source.close();
    source = new EventSource(url);
    source.addEventListener("open", () => onLink(true));
    source.addEventListener("state", (e) => {
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
  open();
  return { reopen: open };
}
