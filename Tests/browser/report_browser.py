#!/usr/bin/env python3
"""Opens pages of dayfold's HTML report in headless Chromium and says what
the browser saw, as JSON on stdout.

One Chromium for all pages, driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: file descriptors 3 and 4, messages ended by NUL),
with the standard library only. For each page it reports the console
messages and errors (CSP violations included), every request the page made
(a self-contained page makes none beyond its own file://), the rows of the
clients at risk by severity, each calendar square (section, date, class,
computed fill, title) and the page's text; with a PNG path it saves a
screenshot of the viewport.

usage: report_browser.py [--chromium PATH] PAGE WIDTH HEIGHT PNG|- [PAGE WIDTH HEIGHT PNG|- …]
"""
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60.0

FACTS = r"""
(() => {
  const rows = [...document.querySelectorAll('tr[data-relationship]')].map(
    (row) => row.className + '|' + row.getAttribute('data-relationship'));
  const squares = [...document.querySelectorAll('section.client rect[data-date]')].map((rect) => {
    const section = rect.closest('section').id;
    const title = rect.querySelector('title');
    return [section, rect.getAttribute('data-date'), rect.getAttribute('class'),
            getComputedStyle(rect).fill, title ? title.textContent : ''].join('|');
  });
  return JSON.stringify({
    title: document.title,
    riskRows: rows,
    squares: squares,
    text: document.body.innerText,
    width: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  });
})()
"""


class Browser:
    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="dayfold-chromium-")
        to_chrome_read, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_write = os.pipe()

        def wire():
            # Copies first: a pipe may already be fd 3 or 4 (and dup2 onto
            # itself would keep its close-on-exec flag).
            reading, writing = os.dup(to_chrome_read), os.dup(from_chrome_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
             "--disable-component-update", "--disable-default-apps", "--disable-sync",
             "--disable-extensions", "--hide-scrollbars", "--mute-audio",
             "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=wire)
        os.close(to_chrome_read)
        os.close(from_chrome_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if ready:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed its pipe (exit %s)" % self.process.poll())
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        os.write(self.to_chrome, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.read_message(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method, session):
        deadline = time.monotonic() + TIMEOUT
        for index, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                del self.events[index]
                return event
        while True:
            event = self.read_message(deadline)
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)


def describe(event):
    params = event.get("params", {})
    method = event.get("method")
    if method == "Runtime.consoleAPICalled":
        return "console.%s: %s" % (params.get("type"), " ".join(
            str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", [])))
    if method == "Runtime.exceptionThrown":
        return "exception: %s" % params.get("exceptionDetails", {}).get("text", "")
    if method == "Log.entryAdded":
        entry = params.get("entry", {})
        return "log %s (%s): %s %s" % (entry.get("level"), entry.get("source"), entry.get("text"), entry.get("url", ""))
    return method


def visit(browser, path, width, height, png):
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.send(domain + ".enable", session=session)
    browser.send("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}, session=session)
    url = "file://" + os.path.abspath(path)
    browser.send("Page.navigate", {"url": url}, session=session)
    browser.wait_for("Page.loadEventFired", session)
    facts = json.loads(browser.send("Runtime.evaluate", {"expression": FACTS, "returnByValue": True},
                                    session=session)["result"]["value"])
    if png != "-":
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(png, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    # Messages logged while the page loaded arrived as events of this session.
    browser.send("Runtime.evaluate", {"expression": "1"}, session=session)
    mine = [event for event in browser.events if event.get("sessionId") == session]
    browser.events = [event for event in browser.events if event.get("sessionId") != session]
    problems = [describe(event) for event in mine
                if event.get("method") in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown")
                or (event.get("method") == "Log.entryAdded"
                    and event["params"]["entry"].get("level") in ("error", "warning"))]
    requests = [event["params"]["request"]["url"] for event in mine
                if event.get("method") == "Network.requestWillBeSent"]
    browser.send("Target.closeTarget", {"targetId": target})
    facts.update({"page": path, "url": url, "console": problems, "requests": requests})
    return facts


def main(arguments):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    if arguments[:1] == ["--chromium"]:
        chromium, arguments = arguments[1], arguments[2:]
    if not arguments or len(arguments) % 4:
        print(__doc__, file=sys.stderr)
        return 2
    if not shutil.which(chromium) and not os.path.exists(chromium):
        print("report_browser.py: no Chromium (%s); Scripts/ensure-deps.sh installs it" % chromium, file=sys.stderr)
        return 1
    browser = Browser(chromium)
    try:
        pages = []
        for index in range(0, len(arguments), 4):
            path, width, height, png = arguments[index:index + 4]
            pages.append(visit(browser, path, int(width), int(height), png))
    finally:
        browser.close()
    json.dump({"pages": pages}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
