# SPDX-License-Identifier: GPL-2.0
"""A headless Chromium driven over the DevTools protocol, standard library only.

Chromium's --remote-debugging-pipe reads commands on fd 3 and writes answers
and events on fd 4, each a JSON text ended by a NUL byte: no websocket, no
port, nothing else listening.
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, chromium=None, width=1400, height=900):
        self.chromium = chromium or os.environ.get("CHROMIUM") or shutil.which("chromium")
        if not self.chromium:
            raise CDPError("chromium not found (scripts/deps.sh installs it)")
        self.profile = tempfile.mkdtemp(prefix="ltt-chromium-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.proc = subprocess.Popen(
            [self.chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-extensions",
             "--disable-default-apps", "--mute-audio", "--no-default-browser-check",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
             "--window-size=%d,%d" % (width, height), "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    def _read(self, timeout):
        end = time.monotonic() + timeout
        while b"\0" not in self.buf:
            if time.monotonic() > end:
                raise CDPError("no answer from chromium in %.0f s" % timeout)
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise CDPError("chromium exited (status %s)" % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, timeout=120, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read(timeout)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise CDPError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=120):
        end = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    del self.events[i]
                    return m.get("params", {})
            self.events.append(self._read(max(end - time.monotonic(), 0.1)))

    def eval(self, expr, timeout=120):
        r = self.call("Runtime.evaluate", timeout=timeout, expression=expr,
                      returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CDPError("%s: %s" % (expr[:60], d.get("exception", {}).get(
                "description", d.get("text"))))
        return r["result"].get("value")

    def navigate(self, url, timeout=120):
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", timeout)

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y,
                      button="left", clickCount=1)

    def type_text(self, text):
        self.call("Input.insertText", text=text)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def console_errors(self):
        return [m["params"] for m in self.events
                if m.get("method") == "Runtime.exceptionThrown"]

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_child)
        os.close(self.from_child)
        shutil.rmtree(self.profile, ignore_errors=True)
