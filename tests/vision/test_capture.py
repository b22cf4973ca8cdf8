"""Capture: files replay every frame in order; a live source hands over only the newest frame."""

import time

import cv2
import numpy as np
import pytest

from vision.capture import Capture, CaptureError


def _numbered(n, size=(160, 120)):
    """Frames whose grey level says their number."""
    return [np.full((size[1], size[0], 3), 10 * i, np.uint8) for i in range(n)]


def _number(frame) -> int:
    return int(round(frame.image.mean() / 10))


def test_a_folder_replays_every_image_in_name_order_timed_by_fps(tmp_path):
    for i, img in enumerate(_numbered(12)):
        cv2.imwrite(str(tmp_path / f"img{i:03d}.png"), img)
    (tmp_path / "notes.txt").write_text("not an image")
    with Capture(tmp_path, fps=10) as cap:
        frames = list(cap)
    assert [_number(f) for f in frames] == list(range(12))
    assert [f.index for f in frames] == list(range(12)) and frames[5].t == pytest.approx(0.5)


def _clip(path, n=20):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (160, 120))
    for img in _numbered(n):
        writer.write(img)
    writer.release()
    return path


def test_a_video_file_replays_losslessly(tmp_path):
    path = _clip(tmp_path / "clip.avi")
    with Capture(path) as cap:
        frames = list(cap)
    assert [_number(f) for f in frames] == list(range(20))
    assert cap.fps == pytest.approx(25) and frames[-1].t == pytest.approx(19 / 25)


def test_live_a_slow_reader_gets_the_newest_frame_not_a_backlog(tmp_path):
    for i, img in enumerate(_numbered(25)):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), img)
    with Capture(tmp_path, live=True, fps=50) as cap:      # a 50 fps "camera"
        first = cap.read()
        time.sleep(0.2)                                     # processing took 10 frame intervals
        later = cap.read()
        assert later.index - first.index >= 5               # it skipped ahead ...
        assert cap.dropped >= 4                             # ... and says how many it dropped
        rest = [f.index for f in cap]
    assert rest == sorted(rest) and (not rest or rest[-1] == 24)


def test_bad_sources_say_what_to_give(tmp_path):
    with pytest.raises(CaptureError, match="no such file, folder or camera"):
        Capture(tmp_path / "missing.mp4")
    with pytest.raises(CaptureError, match="holds no .jpg/.png"):
        Capture(tmp_path)
    (tmp_path / "broken.mp4").write_bytes(b"not a video")
    with pytest.raises(CaptureError, match="cannot be opened"):
        Capture(tmp_path / "broken.mp4")


def test_an_http_stream_is_a_live_source(tmp_path):
    import functools
    import http.server
    import threading

    _clip(tmp_path / "clip.avi")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with Capture(f"http://127.0.0.1:{server.server_address[1]}/clip.avi") as cap:
            assert cap.live
            frames = list(cap)
    finally:
        server.shutdown()
    indices = [f.index for f in frames]
    assert indices == sorted(set(indices)) and indices[-1] == 19     # in order, up to the last frame
    assert all(_number(f) == f.index for f in frames)                 # each frame with its own number
    assert len(frames) + cap.dropped == 20
