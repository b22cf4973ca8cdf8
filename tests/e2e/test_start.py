"""What ``serve`` tells the person who started it (issue 12): every link it
prints opens its page. It printed no venue or table-screen token, so the room's
screen of table 2 (``/table/t2``) answered 403."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

from e2e_server import start_server


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_serve_prints_a_working_table_screen_and_venue_link_for_every_table(tmp_path):
    server = start_server(["serve", "--tables", "2"], tmp_path / "var")
    try:
        banner = "".join(server.lines)
        for table in ("t1", "t2"):
            screen = re.search(rf"(http://\S+/table/{table}\?token=\S+)  ·  console sign-in link", banner)
            venue = re.search(rf"venue overlay \(live, no hands\): (\S+/overlay/{table}\?feed=venue&token=\S+)", banner)
            assert screen and venue, f"no table-screen or venue link for {table} in:\n{banner}"
            assert _status(screen.group(1)) == 200
            assert _status(venue.group(1)) == 200
            assert _status(f"{server.base}/table/{table}") == 403          # the token is what opens it
        token_t1 = re.search(r"/table/t1\?token=(\S+)", banner).group(1)
        assert _status(f"{server.base}/table/t2?token={token_t1}") == 403   # one table's token opens no other
        assert set(server.links) == {"t1", "t2"} and all("overlay" in links for links in server.links.values())
    finally:
        server.stop()
