"""The overlay's preview backdrop: a short looping clip of a rendered table.

With ``preview=1`` the overlay is shown over what the stream's camera would
film, so a producer sees what covers what while the cards move. The clip is
two tricks played and picked up, made by the same renderer the demo's camera
and the vision tests use (``vision.render``), as an animated WebP (an image:
it loops with no player, and every browser source shows it). Sensor noise is
left out: it would only make the file ten times bigger.

Made once per instance folder, on the first preview asked for (about two
seconds), in a worker thread, never on the web server's loop.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .server import off_loop

#: Frames per second and size of the clip (the overlay stretches it to 1920x1080).
FPS = 6
SIZE = (1280, 720)
_making = threading.Lock()


def make_clip(path: Path, seed: int = 5) -> Path:
    """Render the clip to ``path`` (if it is not there yet) and return it."""
    with _making:
        if path.is_file():
            return path
        import cv2

        from vision.faces import builtin_faces
        from vision.render import Effects, SceneRenderer, TableScene, demo_script

        scene = TableScene.square(800, size=SIZE, tilt_deg=28)
        renderer = SceneRenderer(builtin_faces(), scene, seed=seed, size=SIZE, effects=Effects(noise=0.0, blur=0.6))
        clip = cv2.Animation()
        clip.frames = [frame for _, frame in renderer.frames(demo_script(seed, tricks=2), fps=FPS)]
        clip.durations = [round(1000 / FPS)] * len(clip.frames)
        clip.loop_count = 0
        ok, data = cv2.imencodeanimation(".webp", clip, [cv2.IMWRITE_WEBP_QUALITY, 45])
        if not ok:
            raise RuntimeError("OpenCV could not encode the preview clip as WebP")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(data.tobytes())
        tmp.replace(path)
        return path


def preview_clip(folder: Path) -> Path:
    """The clip under ``folder``, made off the event loop when it is missing."""
    path = Path(folder) / "preview.webp"
    return path if path.is_file() else off_loop(make_clip, path)
