"""The NuGet 2 / OPC container: the ``.nuspec`` at the root, ``[Content_Types].xml``, ``_rels/.rels``
and the game under ``def/``, zipped reproducibly (sorted entries, fixed timestamps and attributes).

A part's zip entry name is its URI: every character outside the URI's unreserved set
and ``/`` is percent-encoded as UTF-8 (a space is ``%20``).
"""

from __future__ import annotations

import io
import zipfile
from urllib.parse import quote, unquote

from octgn_pack.project import Project
from octgn_pack.xmlwrite import el, serialize

NUSPEC_NS = "http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd"
MANIFEST_REL = "http://schemas.microsoft.com/packaging/2010/07/manifest"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = {
    "rels": "application/vnd.openxmlformats-package.relationships+xml",
    "nuspec": "application/octet",
    "xml": "application/octet", "py": "application/octet", "png": "application/octet",
    "jpg": "application/octet", "jpeg": "application/octet", "o8d": "application/octet",
    "html": "application/octet", "md": "application/octet", "txt": "application/octet",
}
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def part_uri(path: str) -> str:
    return quote(path, safe="/-._~")


def part_path(uri: str) -> str:
    return unquote(uri)


def nuspec_name(p: Project) -> str:
    return f"{p.guid}.nuspec"


def nuspec(p: Project) -> bytes:
    root = el("package", ("xmlns", NUSPEC_NS))
    md = root.add("metadata")
    for tag, value in (("id", p.guid), ("version", p.version), ("title", p.name), ("authors", p.authors),
                       ("owners", p.authors), ("projectUrl", p.gameurl), ("iconUrl", p.iconurl),
                       ("requireLicenseAcceptance", "false"), ("description", p.description),
                       ("tags", p.tags)):
        md.add(tag).text = value
    return serialize(root)[0]


def content_types(names: list[str]) -> bytes:
    root = el("Types", ("xmlns", CT_NS))
    exts = sorted({n.rsplit(".", 1)[-1].lower() for n in names if "." in n.rsplit("/", 1)[-1]})
    for ext in exts:
        root.add("Default", ("Extension", ext), ("ContentType", CONTENT_TYPES.get(ext, "application/octet")))
    return serialize(root)[0]


def rels(nuspec_file: str) -> bytes:
    root = el("Relationships", ("xmlns", RELS_NS))
    root.add("Relationship", ("Type", MANIFEST_REL), ("Target", "/" + part_uri(nuspec_file)), ("Id", "R0"))
    return serialize(root)[0]


def pack(p: Project, files: dict[str, bytes]) -> bytes:
    """The package: ``files`` (paths under ``def/``) plus the NuGet parts, as zip bytes."""
    parts = {f"def/{k}": v for k, v in files.items()}
    name = nuspec_name(p)
    parts[name] = nuspec(p)
    parts["_rels/.rels"] = rels(name)
    parts["[Content_Types].xml"] = content_types(list(parts) + ["[Content_Types].xml"])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        named = {(path if path == "[Content_Types].xml" else part_uri(path)): path for path in parts}
        for entry in sorted(named):
            path = named[entry]
            info = zipfile.ZipInfo(entry, ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            z.writestr(info, parts[path], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return buf.getvalue()
