"""The pages of `entail report` and `entail show`, opened in headless Chromium.

Each page is loaded through the DevTools protocol (a small client on the
standard library below): the test fails on any console message, script
error or network request beyond the page itself, and counts in the rendered
DOM the marks every figure says it draws (chart bars, car bodies, graph
nodes). Screenshots go to target/pictures/, with the measured sizes and load
times of a report over 20,000 judged answers in target/pictures/timings.json.
Skips, saying why, when no Chromium is installed (scripts/install-deps
installs Debian's)."""

import base64
import json
import os
import queue
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "target" / "pictures"


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    print("SKIP: no chromium on PATH (scripts/install-deps installs it)")
    pytest.skip("no chromium on PATH (scripts/install-deps installs it)")


class DevTools:
    """A DevTools protocol connection over one WebSocket (RFC 6455 framing)."""

    def __init__(self, url: str):
        parts = urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        self.last_id = 0
        self.events = []

    def _exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "DevTools connection closed"
            data += chunk
        return data

    def _send(self, payload: bytes, opcode: int = 1) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _message(self) -> dict:
        data = b""
        while True:
            first, second = self._exact(2)
            n = second & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._exact(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._exact(8))
            payload = self._exact(n)
            opcode = first & 0x0F
            if opcode == 9:  # ping
                self._send(payload, opcode=10)
                continue
            data += payload
            if first & 0x80:
                return json.loads(data)

    def call(self, method: str, session: str = None, **params) -> dict:
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self._send(json.dumps(message).encode())
        while True:
            reply = self._message()
            if reply.get("id") == self.last_id:
                assert "error" not in reply, (method, reply["error"])
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, method: str) -> dict:
        while True:
            for event in self.events:
                if event.get("method") == method:
                    self.events.remove(event)
                    return event
            self.events.append(self._message())


@pytest.fixture(scope="module")
def browser():
    exe = chromium()
    profile = tempfile.mkdtemp(prefix="entail-chromium-")
    proc = subprocess.Popen(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    # Chromium's stderr is read on a thread: a browser that neither prints
    # its DevTools address nor exits must fail the test after 60 s, not
    # block a readline (and the whole run) for ever.
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr],
                     daemon=True).start()
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line.startswith("DevTools listening on "):
                url = line.split(" on ", 1)[1].strip()
        assert url, "chromium did not start its DevTools server within 60 s"
        yield DevTools(url)
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


# What every figure draws, counted in the rendered DOM: a chart's bars are its
# filled rectangles, a train drawing's car bodies too, a graph's nodes are the
# groups of class `node`.
COUNT_MARKS = """JSON.stringify([...document.querySelectorAll('figure')].map(f => {
  const svg = f.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const filled = [...svg.querySelectorAll('rect')]
    .filter(r => r.getAttribute('fill') !== 'none' && !r.closest('.legend')).length;
  const nodes = svg.querySelectorAll('g.node').length;
  const sizes = [...svg.querySelectorAll('text')]
    .filter(t => t.textContent.trim() !== '')
    .map(t => parseFloat(getComputedStyle(t).fontSize));
  const n = f.querySelector('.n');
  const titled = [...svg.querySelectorAll('g.node')].filter(g => {
    const t = g.querySelector(':scope > title');
    return t && t.textContent.trim() !== '';
  }).length;
  return {caption: f.querySelector('figcaption').textContent,
          kind: f.className, marks: Number(f.dataset.marks),
          counted: nodes > 0 ? nodes : filled,
          legend: f.querySelector('.legend') !== null,
          n: n ? n.textContent : null,
          min_font_px: sizes.length ? Math.min(...sizes) : null,
          titled_nodes: titled,
          width: box.width, height: box.height};
}))"""

# Car captions of a train drawing that overlap another's, as
# [text, text] pairs, by their rendered boxes.
OVERLAPPING_LABELS = """JSON.stringify((() => {
  const svg = document.querySelector('figure svg');
  const texts = [...svg.querySelectorAll('text')]
    .filter(t => !t.closest('.legend') && t.textContent.trim() !== '')
    .map(t => [t.textContent.trim(), t.getBBox()]);
  const out = [];
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const [a, p] = texts[i], [b, q] = texts[j];
      if (p.x < q.x + q.width && q.x < p.x + p.width &&
          p.y < q.y + q.height && q.y < p.y + p.height) out.push([a, b]);
    }
  return out;
})())"""

TIMING = """JSON.stringify((() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return {dom_content_loaded_ms: nav.domContentLoadedEventEnd,
          load_ms: nav.loadEventEnd,
          first_contentful_paint_ms: paint ? paint.startTime : null};
})())"""


def open_page(browser: DevTools, page: Path, shot: str, extra: str = None) -> tuple:
    """Loads `page`; returns its figures and timings after checking that it
    logged nothing and fetched nothing else. Keeps a full-page screenshot.
    With `extra` (a script), its value is returned as the timings'
    `extra`."""
    target = browser.call("Target.createTarget", url="about:blank")["targetId"]
    session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(f"{domain}.enable", session)
    browser.events.clear()
    url = page.resolve().as_uri()
    browser.call("Page.navigate", session, url=url)
    browser.wait_for("Page.loadEventFired")
    # One more round trip, so that late console messages arrive first.
    figures = json.loads(
        browser.call("Runtime.evaluate", session, expression=COUNT_MARKS)["result"]["value"]
    )
    timing = json.loads(
        browser.call("Runtime.evaluate", session, expression=TIMING)["result"]["value"]
    )
    if extra:
        timing["extra"] = json.loads(
            browser.call("Runtime.evaluate", session, expression=extra)["result"]["value"]
        )
    problems = []
    for event in browser.events:
        method, params = event.get("method"), event.get("params", {})
        if method in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown"):
            problems.append((method, params))
        elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
            problems.append((method, params["entry"]))
        elif method == "Network.requestWillBeSent" and params["request"]["url"] != url:
            problems.append((method, params["request"]["url"]))
    assert problems == [], problems
    metrics = browser.call("Page.getLayoutMetrics", session)["cssContentSize"]
    shot_png = browser.call(
        "Page.captureScreenshot", session, format="png", captureBeyondViewport=True,
        clip={"x": 0, "y": 0, "width": metrics["width"],
              "height": min(metrics["height"], 16000), "scale": 1},
    )["data"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / shot).write_bytes(base64.b64decode(shot_png))
    browser.call("Target.closeTarget", targetId=target)
    return figures, timing


def run(entail_bin: str, *args: str) -> None:
    done = subprocess.run([entail_bin, *args], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, SOURCE_DATE_EPOCH="0"))
    assert done.returncode == 0, done.stderr


def check_marks(figures: list) -> None:
    """Every figure draws what it says, has a legend, text of 11 px or more,
    and (charts and graphs) fits 2,400 x 3,000 px; every chart states its
    n; every graph node has a tooltip."""
    for f in figures:
        assert f["counted"] == f["marks"], f
        assert f["width"] > 0 and f["height"] > 0, f
        assert f["legend"], f
        assert f["min_font_px"] is None or f["min_font_px"] >= 11, f
        if f["kind"] == "chart" or f["titled_nodes"]:
            # Charts and graphs; a train drawing grows a row per train.
            assert f["width"] <= 2400 and f["height"] <= 3000, f
        if f["kind"] == "chart":
            assert f["n"] and f["n"].startswith("n = "), f
        elif f["titled_nodes"]:
            assert f["titled_nodes"] == f["marks"], f


def test_report_of_two_models_renders_every_chart(browser, entail_bin, tmp_path):
    page = tmp_path / "report.html"
    r = "corpora/report/"
    run(entail_bin, "report", r + "judged_a.jsonl", r + "judged_b.jsonl", r + "logicgraph.json",
        r + "logicon_a.json", r + "logicon_b.json", r + "divlogic_a.json", r + "divlogic_b.json",
        "--tasks", r + "slr_tasks.jsonl", "--label", "model-a", "--label", "model-b",
        "--output", str(page))
    figures, _ = open_page(browser, page, "report.png")
    check_marks(figures)
    bars = {f["caption"]: f["counted"] for f in figures}
    # As tests/picture.rs counts them from the corpora.
    assert len(figures) == 22
    assert bars["SLR: accuracy by curriculum level"] == 10
    assert bars["SLR: answers of model-b by error kind and level"] == 20
    assert bars["LogicGraph: success by tier"] == 4
    assert bars["DivLogicEval: accuracy, Circular and PartialCircular"] == 8


@pytest.mark.parametrize(
    "name, args, kind, marks",
    [
        ("slr", ["corpora/slr/task_l1.json"], "drawing", 6),
        ("slr-unlabelled", ["corpora/report/slr_tasks.jsonl", "--id", "8", "--unlabelled"], "drawing", 16),
        ("logicgraph", ["corpora/logicgraph-answers/Tiny/case_1", "--answer",
                        "corpora/logicgraph-answers/case_1.answer.in"], "drawing", 15),
        ("logicon", ["corpora/score/logicon_samples.jsonl", "--id", "logicon-plain-k3-1"], "drawing", 6),
    ],
)
def test_each_kind_of_item_draws_its_marks(browser, entail_bin, tmp_path, name, args, kind, marks):
    page = tmp_path / f"{name}.html"
    run(entail_bin, "show", *args, "--html", "--output", str(page))
    figures, _ = open_page(browser, page, f"show-{name}.png")
    check_marks(figures)
    assert [(f["kind"], f["counted"]) for f in figures] == [(kind, marks)]


def test_report_over_20000_judged_answers_is_small_and_quick(browser, entail_bin, tmp_path):
    """Two models of 10,000 answers each over the 20 levels; records the
    page's size and its load time in Chromium (target/pictures/timings.json).
    The size is asserted; the time is measured, not asserted (no test
    depends on timing)."""
    tasks = tmp_path / "tasks.jsonl"
    with open(tasks, "w") as out:
        subprocess.run([entail_bin, "gen", "slr", "--levels", "1-20", "--count", "1", "--seed", "3"],
                       stdout=out, stderr=subprocess.DEVNULL, check=True)
    rows = [json.loads(line) for line in tasks.read_text().splitlines()]
    wrong = ["eastbound(T) :- has_car(T, C).", "eastbound(T) :- has_car(T, C), car_len(C, ).",
             "I do not know.", "eastbound(T) :- shell(ls)."]
    # Each batch is about 0.5 GB (a level-20 task is 100 KB): it is removed once
    # judged, and the report reads only each answer's id and level.
    joined = tmp_path / "tasks_both.jsonl"
    with open(joined, "w") as levels:
        for model, every in (("a", 2), ("b", 3)):
            batch = tmp_path / f"batch_{model}.jsonl"
            with open(batch, "w") as out:
                for i in range(10_000):
                    task = rows[i % len(rows)]
                    guess = task["ground-truth rule"] if i % every else wrong[i % len(wrong)]
                    out.write(json.dumps(dict(task, id=f"{model}-{i}", prediction=guess)) + "\n")
                    levels.write(json.dumps({"id": f"{model}-{i}",
                                             "curriculum level": task["curriculum level"]}) + "\n")
            judged = tmp_path / f"judged_{model}.jsonl"
            run(entail_bin, "judge", "--batch", str(batch), "--output", str(judged))
            batch.unlink()
    page = tmp_path / "report-20000.html"
    started = time.monotonic()
    run(entail_bin, "report", str(tmp_path / "judged_a.jsonl"), str(tmp_path / "judged_b.jsonl"),
        "--tasks", str(joined), "--output", str(page))
    made_s = time.monotonic() - started
    size = page.stat().st_size
    assert size < 2 * 1024 * 1024, size
    figures, timing = open_page(browser, page, "report-20000.png")
    check_marks(figures)
    accuracy = next(f for f in figures if f["caption"] == "SLR: accuracy by curriculum level")
    assert accuracy["counted"] == 2 * 20
    record = dict(answers=20_000, bytes=size, report_command_s=round(made_s, 3), **timing)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "timings.json").write_text(json.dumps(record, indent=1) + "\n")
    print("report over 20,000 judged answers:", record)


def test_large_logicgraph_drawings_are_readable(browser, entail_bin, tmp_path):
    """A Large-tier instance, alone and with an answer (its own gold
    solutions, every step of which equals a gold node): within 2,400 x
    3,000 px, text of 11 px or more, a key, a tooltip on every node; the
    answer's steps are drawn on the gold nodes, so it adds no node."""
    out = tmp_path / "large"
    run(entail_bin, "gen", "logicgraph", "--tier", "large", "--count", "1", "--seed", "1",
        "--output", str(out))
    (instance,) = [d for d in out.rglob("complete.json")]
    instance = instance.parent
    counts = []
    for name, extra in (("large", []), ("large-answer", ["--answer", str(instance / "solutions.json")])):
        page = tmp_path / f"{name}.html"
        run(entail_bin, "show", str(instance), *extra, "--html", "--output", str(page))
        figures, _ = open_page(browser, page, f"show-{name}.png")
        check_marks(figures)
        (figure,) = figures
        assert figure["titled_nodes"] == figure["marks"], figure
        counts.append(figure["marks"])
    assert counts[0] == counts[1], counts


def test_level_20_car_labels_do_not_overlap(browser, entail_bin, tmp_path):
    tasks = tmp_path / "l20.jsonl"
    with open(tasks, "w") as out:
        subprocess.run([entail_bin, "gen", "slr", "--level", "20", "--count", "1", "--seed", "5",
                        "--split", "test"],
                       stdout=out, stderr=subprocess.DEVNULL, check=True)
    page = tmp_path / "l20.html"
    run(entail_bin, "show", str(tasks), "--html", "--output", str(page))
    figures, timing = open_page(browser, page, "show-slr-l20.png", extra=OVERLAPPING_LABELS)
    check_marks(figures)
    assert timing["extra"] == []
