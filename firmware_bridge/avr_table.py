"""The table run by the real firmware: its ELF on a simulated Arduino Mega 2560.

``mega2560-sim`` (``firmware/sim/``) executes ``firmware.elf`` instruction by
instruction on libsimavr, with nine register-level MFRC522 models on the SPI
bus and the UART on a pseudo-terminal. :class:`AvrTable` starts it, places
the tags through its control socket, and offers the same cards, scripts and
faults as :class:`~firmware_bridge.virtual_table.VirtualTable`, so one test
or script runs against the Python model and against the binary a club flashes:

    with AvrTable() as table:              # builds nothing: run `make firmware` first
        table.deal({"S": ["Jh", "9h"]})
        table.play("S", "Jh")
        table.reboot()                     # the AVR's reset pin
        table.miss(3, 0.2)                 # antenna 3 misses a fifth of its reads
        table.dead(5)                      # reader 5 stops answering on SPI

``reboot`` resets the AVR; ``unplug``/``replug`` take the port away and power
the board up again; ``stale_on_open`` makes the next bytes from the host reset
the board (DTR) while its USB bridge replays old output, as a Mega does.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, Optional

from .card_table import CardTable, stale_output

FIRMWARE_DIR = Path(__file__).parent / "firmware"
BUILD_DIR = Path(__file__).resolve().parents[1] / "build" / "firmware"
CPU_HZ = 16_000_000


class FirmwareMissing(RuntimeError):
    """The ELF or the simulator is not built."""


def build(build_dir: Path = BUILD_DIR) -> Path:
    """``make`` the firmware and the simulator into ``build_dir`` (incremental); returns it."""
    if shutil.which("avr-gcc") is None:
        raise FirmwareMissing("avr-gcc is missing: run 'bash scripts/system-deps.sh' (or 'make firmware')")
    run = subprocess.run(["make", "--no-print-directory", "-C", str(FIRMWARE_DIR), f"BUILD={build_dir}", "all"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise FirmwareMissing(f"building the firmware failed:\n{run.stdout}{run.stderr}")
    return build_dir


class Run(NamedTuple):
    """A scripted run of the board: every line it sent and every command applied, by cycle."""

    lines: list      # (cycle of the line's '\n' leaving the UART, line text)
    commands: list   # (cycle, command text)
    report: dict     # mega2560-sim --report: flash, RAM, stack peak, sweeps...

    def frames(self, prefix: str) -> list:
        """(cycle, line) of the lines that start with ``prefix`` (``"$TAG"``, ``"$HB"``...)."""
        return [(cycle, text) for cycle, text in self.lines if text.startswith(prefix)]


def run_script(script: str, *, build_dir: Path = BUILD_DIR, seed: int = 1, timeout_s: float = 300) -> Run:
    """Run the board on a script (``<ms> <command>`` lines, see ``firmware/sim/scenario.h``)
    as fast as the simulator goes; deterministic for a given script and seed."""
    with tempfile.TemporaryDirectory(prefix="belote-mega-run-") as tmp:
        script_path, log_path = Path(tmp) / "script.txt", Path(tmp) / "log.txt"
        script_path.write_text(script)
        run = subprocess.run([str(Path(build_dir) / "mega2560-sim"), "--elf", str(Path(build_dir) / "firmware.elf"),
                              "--script", str(script_path), "--log", str(log_path), "--seed", str(seed),
                              "--report"], capture_output=True, text=True, timeout=timeout_s)
        if run.returncode != 0:
            raise RuntimeError(f"mega2560-sim failed ({run.returncode}): {run.stderr}")
        lines, commands = [], []
        for raw in log_path.read_text(errors="replace").splitlines():
            cycle, kind, text = (raw.split(" ", 2) + [""])[:3]
            if kind == "out":
                lines.append((int(cycle), text))
            elif kind == "cmd":
                commands.append((int(cycle), text))
        return Run(lines, commands, json.loads(run.stdout.strip().splitlines()[-1]))


class AvrTable(CardTable):
    def __init__(self, *, tags: Optional[dict] = None, link_path: Optional[str] = None,
                 build_dir: Path = BUILD_DIR, speed: float = 1.0, seed: int = 1,
                 log_path: Optional[str] = None):
        super().__init__(tags)
        self.elf, self.simulator = Path(build_dir) / "firmware.elf", Path(build_dir) / "mega2560-sim"
        self.speed, self.seed, self.log_path = speed, seed, log_path
        self._dir = tempfile.mkdtemp(prefix="belote-mega-")
        self.path = link_path or os.path.join(self._dir, "ttyACM")
        self._socket_path = os.path.join(self._dir, "control")
        self._proc: Optional[subprocess.Popen] = None
        self._control: Optional[socket.socket] = None
        self._replies = b""

    # -- lifecycle --------------------------------------------------------------
    def start(self) -> str:
        """Power the board up; returns the port path to open."""
        try:
            self._launch()
        except BaseException:
            self.stop()
            raise
        with self._lock:
            for uid, antenna in self._physical.items():
                self._moved(uid, antenna)
        return self.path

    def _launch(self) -> None:
        for path in (self.elf, self.simulator):
            if not path.exists():
                raise FirmwareMissing(f"{path} is missing: run 'make firmware'")
        cmd = [str(self.simulator), "--elf", str(self.elf), "--link", self.path, "--control", self._socket_path,
               "--speed", str(self.speed), "--seed", str(self.seed)]
        if self.log_path:
            cmd += ["--log", self.log_path]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while self._control is None:
            if self._proc.poll() is not None:
                raise FirmwareMissing(f"mega2560-sim exited: {self._proc.stderr.read().decode(errors='replace')}")
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                conn.connect(self._socket_path)
            except (FileNotFoundError, ConnectionRefusedError):
                conn.close()
                if time.monotonic() > deadline:
                    raise FirmwareMissing("mega2560-sim did not open its control socket in 10 s") from None
                time.sleep(0.02)
                continue
            conn.settimeout(10)
            self._control = conn

    def stop(self) -> None:
        if self._control is not None:
            try:
                self._command("end")
            except OSError:
                pass
            self._control.close()
            self._control = None
        if self._proc is not None:
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc.stderr.close()
            self._proc = None
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> "AvrTable":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _command(self, text: str) -> str:
        """One control command, answered once the simulator has applied it."""
        with self._lock:
            self._control.sendall(text.encode() + b"\n")
            while b"\n" not in self._replies:
                chunk = self._control.recv(4096)
                if not chunk:
                    raise OSError("mega2560-sim closed its control socket")
                self._replies += chunk
            reply, self._replies = self._replies.split(b"\n", 1)
        answer = reply.decode()
        if answer.startswith("error"):
            raise ValueError(f"mega2560-sim refused {text!r}: {answer}")
        return answer

    # -- the table ------------------------------------------------------------------
    def _moved(self, uid: str, antenna: Optional[int]) -> None:
        if self._control is not None:
            self._command(f"lift {uid}" if antenna is None else f"put {antenna} {uid}")

    def sync(self) -> int:
        """The board's simulated time in ms, once every earlier command is applied."""
        return int(self._command("sync").split()[1])

    def miss(self, antenna, rate: float) -> None:
        """Each tag on ``antenna`` (or ``"all"``) misses each scan with probability ``rate``."""
        self._command(f"miss {antenna} {rate}")

    def dead(self, antenna: int, dead: bool = True) -> None:
        """A reader stops (or resumes) answering on the SPI bus."""
        self._command(f"dead {antenna} {int(dead)}")

    def send(self, text: str) -> None:
        """A line to the board's UART as if the host had sent it."""
        self._command(f"send {text}")

    # -- faults ------------------------------------------------------------------------
    def drop(self, frames: int = 1) -> None:
        """The next lines are lost on the way to the host (their SEQ is spent: a gap)."""
        self._command(f"drop {frames}")

    def corrupt(self, frames: int = 1) -> None:
        """The next lines reach the host with a flipped bit (bad CRC)."""
        self._command(f"corrupt {frames}")

    def reboot(self) -> None:
        """The AVR's reset pin: the firmware boots again (new boot id, SEQ from 0)."""
        self._command("reset")

    def unplug(self) -> None:
        self._command("unplug")

    def replug(self) -> None:
        """Plugged back in: the same path, a new pty, and the board powers up."""
        self._command("replug")

    def silence(self, seconds: float) -> None:
        """The firmware hangs for ``seconds``: nothing is sent, what the host sends is lost."""
        self._command(f"silence {int(seconds * 1000)}")

    def stale_on_open(self) -> None:
        """When the host next writes, the board resets (DTR) and old output comes first."""
        self._command(f"stale {stale_output(0x1234).hex().upper()}")
