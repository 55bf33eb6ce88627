"""What the three command lines (``rulescript``, ``wwrf``, ``aiwolf``) share: exit statuses, turning
every failure into one line on stderr (a crash report for a bug), atomic output files, progress on a
terminal, colour, the summary line and ``--version``.

Exit statuses, the same for every command::

    0    success
    1    the input has errors, or tests failed
    2    usage error (bad option, missing file or folder) or I/O error (unwritable output, ...)
    3    internal error (a bug): one line on stderr and the path of a crash report
    130  interrupted (Ctrl-C)
"""

from __future__ import annotations

import argparse
import codecs
import io
import os
import re
import sys
import tempfile
import time
import traceback
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TextIO

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

EXIT_STATUS_HELP = ("exit status: 0 success, 1 errors in the input (or failed tests), 2 usage or I/O error, "
                    "3 internal error (with a crash report), 130 interrupted.")


class UsageError(Exception):
    """A mistake on the command line or an unusable path: one line on stderr, exit status 2."""


class InputError(Exception):
    """An input that cannot be read as what it should be (a binary file given as text): one line on
    stderr, exit status 1."""


# ------------------------------------------------------------------------------------------ guard
def _paths_and_escapes(exc: UnicodeError) -> tuple[str | bytes, int]:
    """Encoding error handler: a file name's undecodable bytes (surrogate escapes) are written back as
    the bytes they were; any other character the stream's encoding lacks is written as an escape."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = bytearray()
    for ch in exc.object[exc.start:exc.end]:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        else:
            out += ch.encode("ascii", "backslashreplace")
    return bytes(out), exc.end


codecs.register_error("rulescript-output", _paths_and_escapes)


def _tame_streams() -> None:
    """Never fail on printing a character the terminal's encoding lacks (a non-UTF-8 locale and a
    non-ASCII path): write an escape instead (a file name's own bytes as they are)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="rulescript-output")
            except (ValueError, io.UnsupportedOperation):  # pragma: no cover - a detached stream
                pass


def _say(prog: str, message: str) -> None:
    try:
        sys.stderr.write(f"{prog}: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # pragma: no cover - stderr closed too
        pass


def _silence_stdout() -> None:
    """After the reader of stdout went away: point stdout at /dev/null so the interpreter's final
    flush does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):  # pragma: no cover
        pass


def crash_dir() -> Path:
    """Where crash reports go: ``$RULESCRIPT_CRASH_DIR``, else ``$XDG_CACHE_HOME/rulescript/crashes``
    (``~/.cache/rulescript/crashes``)."""
    explicit = os.environ.get("RULESCRIPT_CRASH_DIR")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "rulescript" / "crashes"


def write_crash_report(prog: str, exc: BaseException) -> str:
    """Write the traceback of an unexpected exception to a file; return its path."""
    text = (f"{prog} {version()} crashed at {datetime.now().isoformat(timespec='seconds')}\n"
            f"command: {' '.join(sys.argv)}\nworking folder: {os.getcwd()}\n"
            f"python: {sys.version.split()[0]} on {sys.platform}\n\n"
            + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    name = f"{prog}-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    for folder in (crash_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8", errors="backslashreplace")
            return str(path)
        except OSError:
            continue
    return "(none: no folder could be written)"  # pragma: no cover


def guarded(prog: str, body: Callable[[], int]) -> int:
    """Run a command's body and turn every failure into one line on stderr and its exit status."""
    _tame_streams()
    try:
        status = int(body())
        sys.stdout.flush()
        return status
    except UsageError as exc:
        _say(prog, f"error: {exc}")
        return EXIT_USAGE
    except InputError as exc:
        _say(prog, f"error: {exc}")
        return EXIT_ERRORS
    except KeyboardInterrupt:
        _say(prog, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        _say(prog, "output closed early (broken pipe); stopped")
        return EXIT_USAGE
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        _say(prog, f"error:{where}: {exc.strerror or exc}" if where else f"error: {exc.strerror or exc}")
        return EXIT_USAGE
    except (Exception, RecursionError, MemoryError) as exc:  # noqa: BLE001 - a bug: report, no traceback
        path = write_crash_report(prog, exc)
        message = str(exc).split("\n")[0][:200]
        _say(prog, f"internal error ({type(exc).__name__}{': ' + message if message else ''}); "
             f"this is a bug. Crash report: {path}")
        return EXIT_INTERNAL


def parse_args(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace | int:
    """argparse's parse_args, returning its exit status (0 for --help/--version, 2 for a usage error)
    instead of raising SystemExit."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE


def run_main(prog: str, body: Callable[[list[str]], int], argv: Sequence[str] | None) -> int:
    """A console script's ``main``: ``body`` gets the arguments (``sys.argv[1:]`` by default) and runs
    :func:`guarded`."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    return guarded(prog, lambda: body(args_list))


def parse_command(parser: argparse.ArgumentParser, argv: list[str], commands: str) -> argparse.Namespace | int:
    """:func:`parse_args` for a parser of subcommands: a missing command is a usage error that names
    ``commands``."""
    args = parse_args(parser, argv)
    if not isinstance(args, int) and getattr(args, "command", None) is None:
        parser.print_usage(sys.stderr)
        raise UsageError(f"a command is required ({commands})")
    return args


# ------------------------------------------------------------------------------------------ parsers
_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)$")


def did_you_mean(word: str, known: Iterable[str]) -> list[str]:
    """Up to three known words close to a mistyped one."""
    import difflib

    return difflib.get_close_matches(word, list(known), n=2, cutoff=0.6)


def _suggestion(found: list[str]) -> str:
    return f"; did you mean {' or '.join(found)}?" if found else ""


class CommandParser(argparse.ArgumentParser):
    """The argument parser of every command: a mistyped command, choice or option gets "did you mean",
    and an option a command does not know is reported with that command's usage (argparse would pass
    it up to the top-level parser, whose usage says nothing of the command's options)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        ns, extras = super().parse_known_args(args, namespace)
        if extras:  # every parser here is strict: no command takes arguments it does not declare
            self.error(self._unrecognized(extras))
        return ns, extras

    def _unrecognized(self, extras: list[str]) -> str:
        options = [s for action in self._actions for s in action.option_strings]
        hints = {}
        for word in extras:
            option = word.split("=", 1)[0]
            if option.startswith("-") and did_you_mean(option, options):
                hints[option] = f"did you mean {' or '.join(did_you_mean(option, options))}?"
        text = f"unrecognized arguments: {' '.join(extras)}"
        if len(hints) == 1:
            return text + f" ({next(iter(hints.values()))})"
        return text + (f" ({'; '.join(f'{o}: {h}' for o, h in hints.items())})" if hints else "")

    def error(self, message: str) -> Any:  # type: ignore[override]
        m = _INVALID_CHOICE.search(message)
        if m:
            choices = re.findall(r"'([^']*)'", m.group(2))
            message += _suggestion([f"'{c}'" for c in did_you_mean(m.group(1), choices)])
        return super().error(message)


# ------------------------------------------------------------------------------------------ options
def version() -> str:
    try:
        from importlib.metadata import version as _v

        return _v("rulescript-bridge")
    except Exception:  # noqa: BLE001 - running from a checkout that is not installed
        return "0+unknown"


def add_version(parser: argparse.ArgumentParser, prog: str) -> None:
    parser.add_argument("--version", action="version", version=f"{prog} {version()} (rulescript-bridge)")


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return _int_at_least(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _int_at_least(text, 0)


def _int_at_least(text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"{value} is too small (the least is {low})")
    return value


def seed_int(text: str) -> int:
    """argparse type: any integer that fits in 64 bits."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if abs(value) >= 2 ** 63:
        raise argparse.ArgumentTypeError(f"{text} does not fit in 64 bits")
    return value


# ------------------------------------------------------------------------------------------ output files
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _kind(path: Path) -> str:
    """'folder', 'file' or 'missing' (a path that cannot even be looked at counts as missing)."""
    try:
        return "folder" if path.is_dir() else "file" if path.exists() else "missing"
    except (OSError, ValueError):
        return "missing"


def input_file(raw: str | Path, what: str = "file") -> Path:
    """An input file that exists and is not a folder (else a usage error, exit status 2)."""
    return _input(raw, what, folder=False)


def input_folder(raw: str | Path, what: str = "folder") -> Path:
    """An input folder that exists (else a usage error, exit status 2)."""
    return _input(raw, what, folder=True)


def _input(raw: str | Path, what: str, folder: bool) -> Path:
    kind = _kind(Path(raw))
    if kind == "missing":
        raise UsageError(f"no such {what}: {raw}")
    if folder and kind == "file":
        raise UsageError(f"{raw} is not a folder; give a {what}")
    if not folder and kind == "folder":
        raise UsageError(f"{raw} is a folder; give a {what}")
    return Path(raw)


def output_folder(raw: str | Path, writable: bool = False) -> Path:
    """An output folder: a folder or nothing yet, and no file stands where its parents should be;
    with ``writable``, a file can be made there (tried before the work)."""
    path = Path(raw)
    for p in (path, *path.parents):
        try:
            if p.exists() and not p.is_dir():
                raise UsageError(f"{p} is not a folder" + (f" (in {raw})" if p != path else ""))
        except OSError:
            break
    if writable:
        _try_writing(path, f"cannot write into {raw}")
    return path


def _try_writing(folder: Path, what: str) -> None:
    """Make and remove a file in ``folder`` (or the nearest folder above it that exists): a usage
    error saying ``what`` when that cannot be done."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        fd, probe = tempfile.mkstemp(dir=existing, prefix=".rulescript-probe-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"{what}: {exc.strerror or exc}") from None


def check_output_path(path: str | Path) -> Path:
    """An output file path that can be written: not a folder, no file where its folders should be, and
    the nearest existing folder writable.  Commands call it before their work, so that a bad output
    path never costs the work (a game played to the end before its log cannot be written)."""
    out = Path(path)
    if out.is_dir():
        raise UsageError(f"{path} is a folder; give a file name")
    output_folder(out.parent)
    _try_writing(out.parent, f"cannot write {path}")
    return out


def write_atomic(path: str | Path, data: str | bytes | Iterable[str], encoding: str = "utf-8",
                 newline: str | None = None) -> None:
    """Write a file through a temporary file in the same folder and a rename: a failed write never
    leaves a half-written file, and readers see the old or the new file.  The file gets the normal
    permissions of a new file under the user's umask (0644 under umask 022), or keeps those of the
    file it replaces."""
    out = check_output_path(path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix="." + out.name + ".", suffix=".tmp")
    except OSError as exc:  # name the user's path, never the temporary file's
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        mode = out.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        os.fchmod(fd, mode)
        if isinstance(data, (bytes, bytearray)):
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        else:
            with os.fdopen(fd, "w", encoding=encoding, newline=newline if newline is not None else "") as fh:
                if isinstance(data, str):
                    fh.write(data)
                else:  # chunks (a large JSON document written as it is encoded)
                    for chunk in data:
                        fh.write(chunk)
        os.replace(tmp, out)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ------------------------------------------------------------------------------------------ terminal
def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def use_colour(stream: Any) -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set (https://no-color.org) or TERM is dumb."""
    return is_terminal(stream) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


_CODES = {"red": "31", "yellow": "33", "green": "32", "bold": "1", "cyan": "36"}
_HEAD = re.compile(r"^(\S.*?:\d+:\d+: )(error|warning|note)(\[[A-Z0-9]+\]: )", re.M)


def paint(text: str, colour: str, on: bool) -> str:
    return f"\x1b[{_CODES[colour]}m{text}\x1b[0m" if on else text


def colour_diagnostics(text: str, on: bool) -> str:
    """Colour the heads of rendered diagnostics (``file:line:col: error[CODE]: ...``)."""
    if not on:
        return text
    colours = {"error": "red", "warning": "yellow", "note": "cyan"}
    return _HEAD.sub(lambda m: paint(m.group(1), "bold", True) + paint(m.group(2), colours[m.group(2)], True)
                     + m.group(3), text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(ok: bool, what: str, errors: int, warnings: int, warnings_shown: bool, colour: bool = False,
            extra: str = "") -> str:
    """The one summary-line style of every checking command:
    ``ok: 119 rules compiled from 4 files; 0 errors, 2 warnings (hidden by --no-warnings)``."""
    status = paint("ok", "green", colour) if ok else paint("FAILED", "red", colour)
    text = f"{status}: {what}; {plural(errors, 'error')}, {plural(warnings, 'warning')}"
    if warnings and not warnings_shown:
        text += " (hidden by --no-warnings)"
    return text + extra


def _progress_delay(default: float = 1.0) -> float:
    """Seconds of work before progress shows: ``RULESCRIPT_PROGRESS_DELAY`` (a number), else ``default``."""
    try:
        return max(0.0, float(os.environ.get("RULESCRIPT_PROGRESS_DELAY", default)))
    except ValueError:
        return default


class Progress:
    """``\\r``-updated progress on a terminal once the work has run for ``delay`` seconds (by default
    one second, or ``RULESCRIPT_PROGRESS_DELAY``); nothing when the stream is not a terminal."""

    def __init__(self, label: str, stream: TextIO | None = None, delay: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.enabled = is_terminal(self.stream)
        self.clock = clock
        self.start = clock()
        self.delay = _progress_delay() if delay is None else delay
        self.shown = 0
        self._last = 0.0

    def __call__(self, done: int, total: int, *_: Any) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.delay or (now - self._last < 0.1 and done < total):
            return
        self._last = now
        line = f"\r  {self.label}: {done}/{total}"
        self.stream.write(line)
        self.stream.flush()
        self.shown = len(line)

    def finish(self) -> None:
        """Clear the progress line (so that what follows starts at the left margin)."""
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0
