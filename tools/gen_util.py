"""What the generators in tools/ (gen_*.py) share."""


def write_if_changed(path, text):
    """Writes `text` to `path` unless the file holds it already: an unchanged
    generated file keeps its timestamp, so nothing that includes it rebuilds."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
