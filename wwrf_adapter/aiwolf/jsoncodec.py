"""Small typed JSON codecs: each turns decoded JSON into a Python value, checking its type and
naming the path of anything wrong (``gameInfo.statusMap.3: expected one of ALIVE, DEAD``)."""

from __future__ import annotations

from dataclasses import MISSING, fields
from enum import Enum
from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


class ProtocolError(ValueError):
    """A packet or reply that does not follow the protocol. It ends that connection only."""


class Codec(Generic[T]):
    def __init__(self, decode: Callable[[Any, str], T], encode: Callable[[T], Any]) -> None:
        self.decode = decode
        self.encode = encode


def _bad(path: str, want: str, value: Any) -> ProtocolError:
    shown = repr(value)
    return ProtocolError(f"{path}: expected {want}, got {shown[:60]}{'...' if len(shown) > 60 else ''}")


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(path, "an integer", value)
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(path, "true or false", value)
    return value


def _str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _bad(path, "a string", value)
    return value


INT: Codec[int] = Codec(_int, lambda v: v)
BOOL: Codec[bool] = Codec(_bool, lambda v: v)
STR: Codec[str] = Codec(_str, lambda v: v)

E = TypeVar("E", bound=Enum)


def enum(cls: type[E]) -> Codec[E]:
    names = [m.value for m in cls]

    def dec(value: Any, path: str) -> E:
        if value not in names:
            raise _bad(path, "one of " + ", ".join(names), value)
        return cls(value)

    return Codec(dec, lambda v: v.value)


def list_of(item: Codec[T]) -> Codec[tuple[T, ...]]:
    def dec(value: Any, path: str) -> tuple[T, ...]:
        if not isinstance(value, list):
            raise _bad(path, "a list", value)
        return tuple(item.decode(v, f"{path}[{i}]") for i, v in enumerate(value))

    return Codec(dec, lambda vs: [item.encode(v) for v in vs])


def agent_map(value_codec: Codec[T]) -> Codec[dict[int, T]]:
    """A JSON object keyed by agent numbers written as strings (``{"3": "ALIVE"}``)."""

    def dec(value: Any, path: str) -> dict[int, T]:
        if not isinstance(value, dict):
            raise _bad(path, "an object", value)
        out: dict[int, T] = {}
        for k, v in value.items():
            if not (isinstance(k, str) and k.isdigit() and len(k) <= 9):
                raise _bad(path, "agent numbers as keys", k)
            out[int(k)] = value_codec.decode(v, f"{path}.{k}")
        return out

    return Codec(dec, lambda m: {str(k): value_codec.encode(v) for k, v in sorted(m.items())})


def enum_map(key: type[E], value_codec: Codec[T]) -> Codec[dict[E, T]]:
    """A JSON object keyed by enum names (``{"SEER": 1}``)."""
    key_codec = enum(key)

    def dec(value: Any, path: str) -> dict[E, T]:
        if not isinstance(value, dict):
            raise _bad(path, "an object", value)
        return {key_codec.decode(k, path): value_codec.decode(v, f"{path}.{k}") for k, v in value.items()}

    return Codec(dec, lambda m: {k.value: value_codec.encode(v) for k, v in m.items()})


def optional(inner: Codec[T]) -> Codec[T | None]:
    return Codec(lambda v, p: None if v is None else inner.decode(v, p),
                 lambda v: None if v is None else inner.encode(v))


def record(cls: type[T], keys: dict[str, tuple[str, Codec[Any]]]) -> Codec[T]:
    """A dataclass as a JSON object. ``keys`` maps each field name to its JSON key and codec.
    A missing key takes the field's default (an error when it has none); unknown keys are ignored."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    assert names == set(keys), (cls, names ^ set(keys))
    required = [f.name for f in fields(cls)  # type: ignore[arg-type]
                if f.default is MISSING and f.default_factory is MISSING]

    def dec(value: Any, path: str) -> T:
        if not isinstance(value, dict):
            raise _bad(path, "an object", value)
        kwargs = {}
        for name, (key, codec) in keys.items():
            if key in value:
                kwargs[name] = codec.decode(value[key], f"{path}.{key}")
        missing = [keys[n][0] for n in required if n not in kwargs]
        if missing:
            raise ProtocolError(f"{path}: missing {', '.join(missing)}")
        return cls(**kwargs)

    def enc(obj: T) -> dict[str, Any]:
        return {key: codec.encode(getattr(obj, name)) for name, (key, codec) in keys.items()}

    return Codec(dec, enc)
