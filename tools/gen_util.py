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


def spec_main(doc, tool, load, gen_header, gen_docs):
    """The command line of a spec's generator: SPEC [--header OUT.h]
    [--docs FILE.md] [--check-docs FILE.md]. gen_docs(spec, current, path)
    gives the docs file's text from its current text (None when it is made
    whole); --check-docs exits 1 when the file is not that text."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("--header")
    ap.add_argument("--docs")
    ap.add_argument("--check-docs")
    args = ap.parse_args()
    spec = load(args.spec)
    if args.header:
        write_if_changed(args.header, gen_header(spec))

    def current(path):
        try:
            with open(path, encoding="utf-8") as f:
                return f.read()
        except FileNotFoundError:
            return None

    if args.docs:
        write_if_changed(args.docs, gen_docs(spec, current(args.docs), args.docs))
    if args.check_docs:
        text = current(args.check_docs)
        if text != gen_docs(spec, text, args.check_docs):
            print(f"{args.check_docs} is stale: run tools/{tool} {args.spec} "
                  f"--docs {args.check_docs}", file=sys.stderr)
            return 1
    return 0
