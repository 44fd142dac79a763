"""Calling a learner's function: whatever it does comes back as a value, within a time limit.

Each call runs in a daemon thread of its own and the check waits ``LIMIT_S`` for it. A
function that raises (``SystemExit`` too) gives ``Raised``; one still running at the limit
gives ``Hung``. Python cannot kill a thread, so a hung call is asked to stop by raising
``Stopped`` inside it (CPython's ``PyThreadState_SetAsyncExc``): that ends a loop of
Python code, but not one waiting inside C (``time.sleep``, ``input()``), which then runs
on until the kernel restarts; ``Hung.stopped`` says which. ``KeyboardInterrupt`` (the
learner interrupting the kernel) is passed on. In the browser (Pyodide) there are no
threads: the call runs directly, with no time limit.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Final

from hookcourse.browser import IN_BROWSER
from hookcourse.course.checks import kernel_hook

# Every check calls through here, so its first import in a notebook kernel is the
# moment to turn "check run before its exercise" into one line (kernel_hook).
kernel_hook.install()

LIMIT_S: Final = 2.0  # per call: the course's cases take microseconds each
STOP_WAIT_S: Final = 0.5  # how long a hung call has to end once asked to stop


class Stopped(BaseException):
    """Raised inside a hung call to end it; a BaseException so ``except Exception`` lets it by."""


@dataclass(frozen=True)
class Returned:
    value: object


@dataclass(frozen=True)
class Raised:
    error: BaseException

    @property
    def name(self) -> str:
        return type(self.error).__name__

    def text(self) -> str:
        """``raised SystemExit: 3``."""
        return f"raised {self.name}: {self.error}"


@dataclass(frozen=True)
class Hung:
    seconds: float
    stopped: bool  # False: it still runs in the background

    def after(self) -> str:
        """What became of the call, and what the learner must do about it."""
        if self.stopped:
            return "The check stopped that call."
        return (
            "It is still running in the background (Python cannot kill a thread): "
            "interrupt the kernel, or restart it if that does not end it."
        )


Outcome = Returned | Raised | Hung
# Sees every Python call the learner's code makes while it runs (``sys.setprofile``).
Profile = Callable[[FrameType, str, object], object]


def _outcome_of(
    fn: Callable[..., object], arguments: tuple[object, ...], profile: Profile | None = None
) -> Outcome:
    try:
        sys.setprofile(profile)  # this thread's calls only
        try:
            value = fn(*arguments)
        finally:
            sys.setprofile(None)
        return Returned(value)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # SystemExit and GeneratorExit are the learner's too
        return Raised(error)


def _ask_to_stop(thread: threading.Thread) -> bool:
    """Raise ``Stopped`` in ``thread``; True when it has ended soon after."""
    import ctypes  # here, not at the top: only CPython on the desktop needs it

    ident = thread.ident
    set_async_exc = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
    if ident is None or set_async_exc is None:
        return False
    set_async_exc(ctypes.c_ulong(ident), ctypes.py_object(Stopped))
    thread.join(STOP_WAIT_S)
    return not thread.is_alive()


def call(
    fn: Callable[..., object],
    *arguments: object,
    limit_s: float | None = None,
    profile: Profile | None = None,
) -> Outcome:
    """``fn(*arguments)`` as an outcome, ``LIMIT_S`` by default, with ``profile`` watching
    its calls; raises only ``KeyboardInterrupt``."""
    limit_s = LIMIT_S if limit_s is None else limit_s
    if IN_BROWSER:
        return _outcome_of(fn, arguments, profile)
    box: list[Outcome] = []

    def run() -> None:
        try:
            box.append(_outcome_of(fn, arguments, profile))
        except KeyboardInterrupt as interrupt:  # raised by the learner's code itself
            box.append(Raised(interrupt))
        except Stopped:  # arrived just as it returned
            pass

    thread = threading.Thread(target=run, name="hookcourse-learner-call", daemon=True)
    thread.start()
    thread.join(limit_s)
    if box:
        outcome = box[0]
        if isinstance(outcome, Raised) and isinstance(outcome.error, KeyboardInterrupt):
            raise outcome.error
        return outcome
    return Hung(limit_s, _ask_to_stop(thread))
