"""The board's client library as the game uses it: the token, the queue, the sender's
backoff, the local streak, the histogram, the card and the share text.

Real files in a temporary save folder, real threads, a real (refusing or
absent) HTTP peer on loopback; the sender against a real board is in
``test_board_server.py``.
"""

from __future__ import annotations

import datetime as _dt
import http.server
import json
import stat
import threading
import time

import pytest

from anabasis.board import API_HEADER, client, runs

DATE = "2026-12-01"
CODE = "DDubKTJrIzZgvqWxkNOZoMmtospOaVWjV2sugyNYs4Os2QOWWQegkTY2EQl"
MOVES = "LURUULLLDLUURDRRRUULDRDLLLDLUUULLDRDLDLDDRRRR"


def test_the_token_is_made_once_kept_private_and_differs_per_save_folder(tmp_path):
    a = client.load_token(tmp_path / "a")
    assert client.load_token(tmp_path / "a") == a
    assert runs.TOKEN.fullmatch(a)
    path = tmp_path / "a" / "board" / "token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert client.load_token(tmp_path / "b") != a
    assert client.read_token(tmp_path / "c") is None


def test_the_token_survives_threads_racing_to_make_it(tmp_path):
    got = []
    threads = [threading.Thread(target=lambda: got.append(client.load_token(tmp_path)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 1 and client.read_token(tmp_path) == got[0]


def test_the_queue_keeps_runs_in_order_across_restarts_and_drops_junk(tmp_path):
    q = client.RunQueue(tmp_path)
    first = client.Run(DATE, CODE, MOVES, 0, 12.0)
    second = client.Run(DATE, CODE, MOVES, 2, 30.0, "Ana")
    q.put(first)
    q.put(second)
    (q.folder / "zz-broken.json").write_text("{not json")
    (q.folder / ".half.json.1234.part").write_text('{"date":')  # a write cut short
    again = client.RunQueue(tmp_path)  # the game started again
    items = again.pending()
    assert [i.run for i in items] == [first, second]
    assert not (q.folder / "zz-broken.json").exists()
    again.done(items[0])
    assert [i.run for i in again.pending()] == [second] and len(again) == 1
    assert second.body("t" * 43) == {"date": DATE, "code": CODE, "moves": MOVES, "hints": 2,
                                     "seconds": 30.0, "token": "t" * 43, "name": "Ana"}


def test_backoff_doubles_to_its_cap_and_takes_the_boards_retry_after():
    b = client.Backoff(1.0, 8.0)
    waits = [b.next() for _ in range(6)]
    for wait, want in zip(waits, [1, 2, 4, 8, 8, 8], strict=True):
        assert 0.75 * want <= wait <= 1.25 * want
    assert b.next(told=50.0) == 50.0
    b.reset()
    assert b.next() <= 1.25


class _Peer(http.server.BaseHTTPRequestHandler):
    """A board that answers every run with the status the test sets."""

    status = 503
    seen: list = []
    board = True  #: False: answer as a captive portal or a wrong URL would (no API header)

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).seen.append(json.loads(body))
        answer = (json.dumps({"error": "no"}) if self.status != 200 else
                  json.dumps({"accepted": True, "moves": 45, "par": 45, "best": 45,
                              "first": 45, "hinted": False, "streak": 1})).encode()
        if not self.board:
            answer = b"<html>sign in to the wifi</html>"
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        if self.board:
            self.send_header(API_HEADER, "1")
        if self.status == 429:
            self.send_header("Retry-After", "7")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def do_GET(self):
        self.send_response(404)
        self.send_header(API_HEADER, "1")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def peer():
    _Peer.seen, _Peer.board = [], True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Peer)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_sender_keeps_a_run_on_5xx_and_429_and_drops_it_on_a_refusal(tmp_path, peer):
    server, url = peer
    q = client.RunQueue(tmp_path)
    q.put(client.Run(DATE, CODE, MOVES))
    sender = client.Sender(q, client.BoardClient(url, timeout=5), "t" * 43,
                           backoff=client.Backoff(0.01, 0.05))
    _Peer.status = 503
    assert sender.send_pending() is not None and len(q) == 1
    _Peer.status = 429
    assert sender.send_pending() == 7.0 and len(q) == 1  # the board's Retry-After
    _Peer.status = 409  # refused for good: off the queue, and the game is told why
    assert sender.send_pending() is None and len(q) == 0
    (out,) = sender.outcomes()
    assert out.refused == "no" and out.answer is None
    assert [s["token"] for s in _Peer.seen] == ["t" * 43] * 3


def test_an_answer_from_something_not_the_board_keeps_the_run(tmp_path, peer):
    server, url = peer
    q = client.RunQueue(tmp_path)
    q.put(client.Run(DATE, CODE, MOVES))
    sender = client.Sender(q, client.BoardClient(url, timeout=5), "t" * 43,
                           backoff=client.Backoff(0.01, 0.05))
    _Peer.board = False
    for status in (200, 404, 409):
        _Peer.status = status
        assert sender.send_pending() is not None and len(q) == 1, status
        assert "not a board" in sender.last_error
    assert sender.outcomes() == []
    _Peer.board, _Peer.status = True, 200
    assert sender.send_pending() is None and len(q) == 0
    (out,) = sender.outcomes()
    assert out.answer["accepted"]


def test_the_sender_thread_never_blocks_the_caller_and_sends_on_wake(tmp_path, peer):
    server, url = peer
    _Peer.status = 200
    q = client.RunQueue(tmp_path)
    sender = client.Sender(q, client.BoardClient(url, timeout=5), "t" * 43,
                           fetch_board=False).start()
    try:
        t0 = time.monotonic()
        q.put(client.Run(DATE, CODE, MOVES))
        sender.wake()
        sender.outcomes()  # the game polls this every frame: it must not wait
        assert time.monotonic() - t0 < 0.5
        end = time.monotonic() + 10
        got = []
        while not got and time.monotonic() < end:
            got = sender.outcomes()
            time.sleep(0.02)
        assert got and got[0].answer["accepted"] and len(q) == 0
    finally:
        sender.stop()


def test_no_board_answer_is_an_error_that_says_retry(tmp_path):
    from anabasis.board import local

    c = client.BoardClient(f"http://127.0.0.1:{local.free_port()}", timeout=2)
    with pytest.raises(client.BoardError) as e:
        c.health()
    assert e.value.retry and e.value.status == 0


def test_the_local_streak_counts_days_in_a_row(tmp_path):
    wins = client.Wins(tmp_path)
    for day in ("2026-11-27", "2026-11-29", "2026-11-30"):
        wins.add(day, 50, 0, 45)
    assert wins.streak(_dt.date(2026, 11, 30)) == 2
    assert wins.streak(_dt.date(2026, 12, 1)) == 2  # today not played yet: still alive
    assert wins.streak(_dt.date(2026, 12, 2)) == 0
    wins.add("2026-11-28", 45, 0, 45)
    assert wins.streak(_dt.date(2026, 11, 30)) == 4
    assert wins.add("2026-11-30", 47, 1, 45) == {"moves": 47, "hints": 1, "par": 45}
    assert wins.add("2026-11-30", 49, 0, 45)["moves"] == 47  # the best of the day stays


def test_the_histogram_local_then_everyones():
    local = client.Histogram.local(45, 47, hinted=True)
    assert (local.rows, local.everyone) == (((47, 0, 1),), False)
    board = {"par": 45, "players": 9, "moves": {"45": 4, "46": 1, "60": 1},
             "hinted": {"45": 2, "47": 1}}
    h = client.Histogram.from_board(board, (47, True))
    assert h.rows == ((45, 4, 2), (46, 1, 0), (47, 0, 1), (60, 1, 0)) and h.everyone
    bars = h.bars(width=12)
    assert bars[0] == ("par", 8, 4, False) and bars[2] == ("par+2", 0, 2, True)
    short = h.bars(width=12, most_rows=3)
    assert [b[0] for b in short] == ["par", "par+1", "par+2+"] and short[-1][3]


def test_the_share_text_spoils_nothing():
    text = client.share_text(DATE, 45, 45, 0, 5)
    assert text.splitlines() == ["Anabasis 2026-12-01", "45 moves, at par, no hints, streak 5",
                                 "🟩" * 10]
    hinted = client.share_text(DATE, 90, 45, 3)
    assert "3 hints" in hinted and hinted.splitlines()[-1] == "🟨" * 5 + "⬜" * 5
    for t in (text, hinted):
        assert CODE not in t and not set("RLDU") & set(t.splitlines()[-1])
        assert all(len(line) < 60 for line in t.splitlines())


def test_the_card_is_local_until_the_board_answers(tmp_path):
    wins = client.Wins(tmp_path)
    wins.add("2026-11-30", 40, 0, 40)
    wins.add(DATE, 47, 0, 45)
    c = client.card(DATE, 47, 45, 0, wins)
    assert c.waiting and not c.histogram.everyone and c.streak == 2
    assert c.against_par == "par 45, +2" and c.share.startswith("Anabasis 2026-12-01")
    run = client.Run(DATE, CODE, MOVES)
    answer = {"accepted": True, "moves": 47, "par": 45, "best": 47, "first": 47,
              "hinted": False, "streak": 3}
    board = {"par": 45, "players": 3, "moves": {"45": 2, "47": 1}, "hinted": {}}
    mine = {"fewer": 2, "of": 3, "tied": 0, "hinted": False}
    c = client.card(DATE, 47, 45, 0, wins, client.Outcome(run, answer, None, board, mine))
    assert not c.waiting and c.histogram.everyone and c.streak == 3
    assert c.place == "2 of 3 players took fewer moves, 0 tied"
    refused = client.card(DATE, 47, 45, 0, wins, client.Outcome(run, refused="late"))
    assert refused.notes == ["late"] and refused.waiting


def test_the_board_setting():
    assert client.board_url(None) is None and client.board_url("none") is None
    assert client.board_url("local") == "http://127.0.0.1:8765"
    assert client.board_url("http://10.0.0.2:80/") == "http://10.0.0.2:80"
    for bad in ("ftp://x", "board.example.org", "http://a b", "javascript:alert(1)"):
        with pytest.raises(client.BoardError):
            client.board_url(bad)


def test_board_lines_escape_nothing_raw_and_mark_the_player():
    board = {"date": DATE, "code": CODE, "par": 45, "players": 3, "hint_free": 2,
             "moves": {"45": 2}, "hinted": {"46": 1}, "at_par": 1.0, "median_seconds": 75.4}
    mine = {"moves": 46, "hinted": True, "fewer": 0, "of": 1, "streak": 2}
    lines = client.board_lines(board, mine, width=10)
    assert lines[0] == "2026-12-01  par 45  3 players (2 without hints)"
    assert lines[1].startswith("  45  par ##########")
    assert lines[2].endswith("<- you") and "hhhhh" in lines[2]
    assert "median time: 1:15" in lines and lines[-1] == f"code: {CODE}"
