#!/usr/bin/env python3
"""Helpers for apple_health_xml.sh (never run by `swift test`).

  generate SOURCE OUT MEGABYTES
      Writes OUT, an Apple Health export.xml of at least MEGABYTES MiB, built from
      SOURCE (a real export.xml): its prolog (XML declaration, inline DTD, <HealthData>,
      ExportDate, Me) once, then every other top-level element of SOURCE repeated,
      each copy with every `YYYY-MM-DD hh:mm:ss +zzzz` date moved forward one
      day more than the copy before: the dates stay plausible (a 1 GiB export
      of a 3.8 MB source spans the source's years plus ~280 days, not
      centuries past year 9999) and a sample repeats only where the source
      holds the same sample a whole number of days apart.
      Prints the number of top-level Record elements written, then the number
      of all top-level elements (dayfold's rows_read).

  zip EXPORT OUT
      Writes OUT, an export.zip as the Health app makes it (EXPORT deflated as
      apple_health_export/export.xml).

  iterparse FILE
      The peer being measured: the xml.etree.ElementTree.iterparse loop that
      open-source exporters use, over top-level Records only (depth-tracked,
      nested Records in Correlations are not counted), reading the sample
      attributes and clearing elements as it goes. Prints the Record count.
"""
import datetime
import re
import sys
import xml.etree.ElementTree as ET
import xml.parsers.expat

DATE = re.compile(rb"(\d{4}-\d{2}-\d{2})( \d{2}:\d{2}:\d{2} [+-]\d{4})")
ATTRIBUTES = ("type", "unit", "value", "startDate", "endDate", "sourceName",
              "sourceVersion", "device", "creationDate")


def top_level_lines(data):
    """(line, name) of each direct child of the root, plus the root's end line."""
    parser = xml.parsers.expat.ParserCreate()
    depth = 0
    starts = []
    root_end = [0]

    def start(name, _attributes):
        nonlocal depth
        depth += 1
        if depth == 2:
            starts.append((parser.CurrentLineNumber, name))

    def end(_name):
        nonlocal depth
        if depth == 1:
            root_end[0] = parser.CurrentLineNumber
        depth -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.Parse(data, True)
    return starts, root_end[0]


def generate(source, out, megabytes):
    data = open(source, "rb").read()
    lines = data.split(b"\n")
    starts, root_end = top_level_lines(data)
    body_from = next(line for line, name in starts if name not in ("ExportDate", "Me"))
    head = b"\n".join(lines[: body_from - 1]) + b"\n"
    body = b"\n".join(lines[body_from - 1 : root_end - 1]) + b"\n"
    tail = b"\n".join(lines[root_end - 1 :])
    records_per_copy = sum(1 for _, name in starts if name == "Record")
    head_elements = sum(1 for line, _ in starts if line < body_from)
    elements_per_copy = len(starts) - head_elements

    # Split the body once at every date; each copy only re-formats the distinct days.
    pieces = []
    position = 0
    for match in DATE.finditer(body):
        pieces.append(body[position : match.start()])
        pieces.append((match.group(1), match.group(2)))
        position = match.end()
    pieces.append(body[position:])
    days = sorted({p[0] for p in pieces if isinstance(p, tuple)})
    parsed = {d: datetime.date.fromisoformat(d.decode()) for d in days}

    target = megabytes * 1024 * 1024
    written = 0
    records = 0
    elements = head_elements
    copy_index = 0
    with open(out, "wb") as output:
        output.write(head)
        written += len(head)
        while written < target:
            shift = datetime.timedelta(days=copy_index)
            moved = {d: (parsed[d] + shift).isoformat().encode() for d in days}
            chunk = b"".join(p if isinstance(p, bytes) else moved[p[0]] + p[1] for p in pieces)
            output.write(chunk)
            written += len(chunk)
            records += records_per_copy
            elements += elements_per_copy
            copy_index += 1
        output.write(tail)
    print(records, elements)


def zip_export(export, out):
    """The Health app's archive: apple_health_export/export.xml, deflated."""
    import zipfile
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.write(export, "apple_health_export/export.xml")


def iterparse(path):
    count = 0
    depth = 0
    root = None
    for event, element in ET.iterparse(path, events=("start", "end")):
        if event == "start":
            depth += 1
            if root is None:
                root = element
            continue
        depth -= 1
        if depth == 1:
            if element.tag == "Record":
                attributes = element.attrib
                sample = tuple(attributes.get(name) for name in ATTRIBUTES)
                if sample[0] is not None:
                    count += 1
            element.clear()
            root.clear()
    print(count)


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "zip":
        zip_export(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "iterparse":
        iterparse(sys.argv[2])
    else:
        sys.exit(__doc__)
