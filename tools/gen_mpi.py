#!/usr/bin/env python3
"""Generates the MPI wrappers of libparallax-mpi from spec/mpi.txt.

  gen_mpi.py spec/mpi.txt --c OUT.cc [--fortran OUT.cc] [--fortran-mpich OUT.cc]
             [--list OUT.txt]

--c: one C wrapper per table line: record the call as a state, run the line's
actions (hooks in src/mpi/hooks.h) before and after the PMPI_ call.
--fortran: for lines flagged F, wrappers of the Fortran symbols (mpi_send_,
mpi_send, mpi_send__, MPI_SEND) around Open MPI's pmpi_send_, with the
Fortran handles converted to C for the same actions; and of its `use mpi_f08`
symbols (mpi_send_f08_ around pmpi_send_f08_), which take the same arguments
(a derived-type handle is its integer) with an optional ierror.
--fortran-mpich: MPICH's `use mpi_f08` symbols that call PMPI_* directly
(mpi_barrier_f08_ around pmpir_barrier_f08_); the rest of MPICH's Fortran
calls the C MPI_* functions.
--list: the wrapped function names, one per line (tests use it).
"""
import argparse
import re
import sys


class Param:
    def __init__(self, text):
        text = text.strip()
        m = re.match(r"^(.*?)(\w+)\s*((?:\[\w*\])*)$", text)
        if not m:
            raise ValueError(f"cannot parse parameter {text!r}")
        self.ctype = m.group(1).strip()
        self.name = m.group(2)
        self.array = m.group(3)  # "[]" or "[][3]" or ""
        self.text = text
        base = self.ctype.replace("const", "").replace("*", "").strip()
        self.base = base
        self.pointer = "*" in self.ctype or bool(self.array)

    def decl(self, name=None):
        return f"{self.ctype} {name or self.name}{self.array}".replace("* ", "*").replace(" *", "* ")


class Function:
    def __init__(self, lineno, flags, proto, actions):
        m = re.match(r"^int\s+(MPI_\w+)\s*\((.*)\)$", proto.strip())
        if not m:
            raise ValueError(f"line {lineno}: cannot parse prototype {proto!r}")
        self.lineno = lineno
        self.name = m.group(1)
        self.params = [Param(p) for p in split_top(m.group(2), ",")] if m.group(2).strip() else []
        self.flags = set(flags.split()) - {"-"}
        self.actions = []
        for a in actions:
            a = a.strip()
            if not a:
                continue
            kind, _, rest = a.partition(":")
            args = [x.strip() for x in rest.split(";")] if rest.strip() else []
            self.actions.append((kind.strip(), args))
        names = {p.name for p in self.params}
        for kind, args in self.actions:
            if kind not in ACTIONS:
                raise ValueError(f"line {lineno}: unknown action {kind!r}")
            if len(args) != ACTIONS[kind]:
                raise ValueError(f"line {lineno}: {kind} takes {ACTIONS[kind]} arguments")
        self.param_names = names

    @property
    def category(self):
        return "kIo" if "io" in self.flags else "kComm"


ACTIONS = {
    "send": 5, "recv": 4, "irecv": 4, "psend": 6, "precv": 4, "start": 1, "startall": 2,
    "wait": 2, "test": 3, "waitall": 3, "testall": 4, "waitany": 4, "testany": 5,
    "waitsome": 5, "testsome": 5, "reqfree": 1, "coll": 5, "icoll": 6, "newcomm": 1,
    "freecomm": 1, "newwin": 2, "freewin": 1, "rma": 5, "probe": 3, "mprobe": 5, "improbe": 6,
    "mrecv": 2, "imrecv": 2,
}


def split_top(text, sep):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def parse(path):
    funcs = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split(" | ")
            if len(parts) < 2:
                sys.exit(f"{path}:{lineno}: expected 'FLAGS | prototype [| action ...]'")
            try:
                funcs.append(Function(lineno, parts[0], parts[1], parts[2:]))
            except ValueError as e:
                sys.exit(f"{path}:{e}")
    seen = set()
    for fn in funcs:
        if fn.name in seen:
            sys.exit(f"{path}:{fn.lineno}: {fn.name} listed twice")
        seen.add(fn.name)
    return funcs


def action_code(fn):
    """(prelude, before, after) lines of C++ for the function's actions."""
    prelude, before, after = [], [], []

    def status(name):
        prelude.append(f"  MPI_Status plx_status_{name};")
        prelude.append(f"  if ({name} == MPI_STATUS_IGNORE) {name} = &plx_status_{name};")

    def statuses(name, count):
        prelude.append(f"  if ({name} == MPI_STATUSES_IGNORE) {name} = plx::mpi::StatusScratch({count});")

    def save_requests(name, count):
        before.append(f"  plx_reqs = plx::mpi::SaveRequests({name}, {count});")
        prelude.append("  const MPI_Request* plx_reqs = nullptr;")

    for kind, a in fn.actions:
        if kind == "send":
            before.append(f"  plx::mpi::Send({a[0]}, {a[1]}, {a[2]}, {a[3]}, {a[4]});")
        elif kind == "recv":
            status(a[2])
            prelude.append("  uint64_t plx_match = 0;")
            before.append(f"  plx_match = plx::mpi::PostRecv({a[0]}, {a[1]}, {a[3]});")
            after.append(f"  plx::mpi::Recv({a[2]}, {a[3]}, plx_match);")
        elif kind == "irecv":
            prelude.append("  uint64_t plx_match = 0;")
            before.append(f"  plx_match = plx::mpi::PostRecv({a[0]}, {a[1]}, {a[2]});")
            after.append(f"  plx::mpi::TrackRecv(*{a[3]}, {a[2]}, plx_match);")
        elif kind == "psend":
            after.append(f"  plx::mpi::TrackPersistentSend(*{a[5]}, {a[0]}, {a[1]}, {a[2]}, {a[3]}, {a[4]});")
        elif kind == "precv":
            after.append(f"  plx::mpi::TrackPersistentRecv(*{a[3]}, {a[0]}, {a[1]}, {a[2]});")
        elif kind == "start":
            before.append(f"  plx::mpi::Start({a[0]}, 1);")
        elif kind == "startall":
            before.append(f"  plx::mpi::Start({a[1]}, {a[0]});")
        elif kind == "wait":
            status(a[1])
            prelude.append("  MPI_Request plx_req = MPI_REQUEST_NULL;")
            before.append(f"  plx_req = *{a[0]};")
            after.append(f"  plx::mpi::Completed(plx_req, {a[1]});")
        elif kind == "test":
            status(a[2])
            prelude.append("  MPI_Request plx_req = MPI_REQUEST_NULL;")
            before.append(f"  plx_req = *{a[0]};")
            after.append(f"  if (*{a[1]}) plx::mpi::Completed(plx_req, {a[2]});")
        elif kind in ("waitall", "testall"):
            st = a[2] if kind == "waitall" else a[3]
            statuses(st, a[0])
            save_requests(a[1], a[0])
            cond = "" if kind == "waitall" else f"if (*{a[2]}) "
            after.append(f"  {cond}plx::mpi::CompletedAll({a[0]}, plx_reqs, {st});")
        elif kind in ("waitany", "testany"):
            st = a[3] if kind == "waitany" else a[4]
            status(st)
            save_requests(a[1], a[0])
            cond = f"*{a[2]} != MPI_UNDEFINED" + ("" if kind == "waitany" else f" && *{a[3]}")
            after.append(f"  if ({cond}) plx::mpi::Completed(plx_reqs[*{a[2]}], {st});")
        elif kind in ("waitsome", "testsome"):
            statuses(a[4], a[0])
            save_requests(a[1], a[0])
            after.append(f"  plx::mpi::CompletedSome(*{a[2]}, {a[3]}, plx_reqs, {a[4]});")
        elif kind == "reqfree":
            before.append(f"  plx::mpi::Untrack(*{a[0]});")
        elif kind == "coll":
            after.append(f"  plx::mpi::Collective(plx::mpi::{a[0]}, {a[1]}, {a[2]}, {a[3]}, {a[4]});")
        elif kind == "icoll":
            after.append(f"  plx::mpi::TrackCollective(*{a[5]}, plx::mpi::{a[0]}, {a[1]}, {a[2]}, {a[3]}, {a[4]});")
        elif kind == "newcomm":
            after.append(f"  plx::mpi::RegisterComm(*{a[0]});")
        elif kind == "freecomm":
            before.append(f"  plx::mpi::UnregisterComm(*{a[0]});")
        elif kind == "newwin":
            after.append(f"  plx::mpi::RegisterWin(*{a[1]}, {a[0]});")
        elif kind == "freewin":
            before.append(f"  plx::mpi::UnregisterWin(*{a[0]});")
        elif kind == "rma":
            before.append(f"  plx::mpi::Rma({a[0]}, {a[1]}, {a[2]}, {a[3]}, {a[4]});")
        elif kind == "probe":
            before.append(f"  plx::mpi::PostProbe({a[0]}, {a[1]}, {a[2]});")
        elif kind == "mprobe":
            # Matching happens here, not at MPI_Mrecv: the post and its match now.
            status(a[4])
            prelude.append("  uint64_t plx_match = 0;")
            before.append(f"  plx_match = plx::mpi::PostRecv({a[0]}, {a[1]}, {a[2]});")
            after.append(f"  plx::mpi::TrackMessage(*{a[3]}, {a[2]}, plx_match);")
        elif kind == "improbe":
            status(a[5])
            after.append(f"  if (*{a[3]}) plx::mpi::TrackMessage(*{a[4]}, {a[2]}, plx::mpi::PostRecv({a[0]}, {a[1]}, {a[2]}));")
        elif kind == "mrecv":
            status(a[1])
            prelude.append("  MPI_Message plx_msg = MPI_MESSAGE_NULL;")
            before.append(f"  plx_msg = *{a[0]};")
            after.append(f"  plx::mpi::MessageReceived(plx_msg, {a[1]});")
        elif kind == "imrecv":
            prelude.append("  MPI_Message plx_msg = MPI_MESSAGE_NULL;")
            before.append(f"  plx_msg = *{a[0]};")
            after.append(f"  plx::mpi::TrackMessageRequest(*{a[1]}, plx_msg);")
    # A line may list an action twice (prelude declarations must not repeat).
    seen, unique = set(), []
    for line in prelude:
        if line not in seen:
            unique.append(line)
            seen.add(line)
    return unique, before, after


HEADER = """// Generated by tools/gen_mpi.py from spec/mpi.txt. Do not edit.
// clang-format off
#include <mpi.h>

#include <cstdint>

#include "mpi/hooks.h"

// Unused parameters are normal here: not every action needs every argument.
#pragma GCC diagnostic ignored "-Wunused-parameter"

// The table's byte and root expressions name the helpers unqualified.
using namespace plx::mpi;  // NOLINT(google-build-using-namespace)
"""


def gen_c(funcs):
    out = [HEADER, "#pragma GCC visibility push(default)", 'extern "C" {', ""]
    for fn in funcs:
        params = ", ".join(p.decl() for p in fn.params)
        args = ", ".join(p.name for p in fn.params)
        prelude, before, after = action_code(fn)
        out.append(f"int {fn.name}({params}) {{")
        out.append(f'  static plx::mpi::StateSlot plx_state{{"{fn.name}", plx::mpi::{fn.category}}};')
        out.extend(prelude)
        out.append("  plx::mpi::Call plx_call(plx_state);")
        if before:
            out.append("  if (plx_call.on) {")
            out.extend("  " + l for l in before)
            out.append("  }")
        out.append(f"  const int plx_rc = P{fn.name}({args});")
        if after:
            out.append("  if (plx_call.on && plx_rc == MPI_SUCCESS) {")
            out.extend("  " + l for l in after)
            out.append("  }")
        out.append("  return plx_rc;")
        out.append("}")
        out.append("")
    out.append('}  // extern "C"')
    out.append("#pragma GCC visibility pop")
    return "\n".join(out) + "\n"


# Fortran: handle types and how a C view of each parameter is made.
F2C = {
    "MPI_Comm": "PMPI_Comm_f2c",
    "MPI_Datatype": "PMPI_Type_f2c",
    "MPI_Op": "PMPI_Op_f2c",
    "MPI_Group": "PMPI_Group_f2c",
    "MPI_Request": "PMPI_Request_f2c",
    "MPI_Win": "PMPI_Win_f2c",
    "MPI_Info": "PMPI_Info_f2c",
}


def fortran_wrapper(fn, kind):
    """The wrapper of one Fortran entry point. kind "f77": Open MPI's mpi_send_
    around pmpi_send_; "f08": Open MPI's mpi_send_f08_ around pmpi_send_f08_;
    "f08_mpich": MPICH's mpi_barrier_f08_ around pmpir_barrier_f08_. An f08
    ierror may be absent (null)."""
    lower = fn.name.lower()
    f08 = kind != "f77"
    entry, real = {"f77": (f"{lower}_", f"p{lower}_"),
                   "f08": (f"{lower}_f08_", f"p{lower}_f08_"),
                   "f08_mpich": (f"{lower}_f08_", f"pmpir{lower[3:]}_f08_")}[kind]
    status_ignore = "PLX_F08_STATUS_IGNORE" if f08 else "MPI_F_STATUS_IGNORE"
    statuses_ignore = "PLX_F08_STATUSES_IGNORE" if f08 else "MPI_F_STATUSES_IGNORE"
    fparams = []
    for p in fn.params:
        if p.base == "void":
            fparams.append(f"void* {p.name}")
        else:
            fparams.append(f"MPI_Fint* f_{p.name}")
    fparams.append("MPI_Fint* ierror" if f08 else "MPI_Fint* ierr")
    fargs = ", ".join(p.name if p.base == "void" else f"f_{p.name}" for p in fn.params)
    fargs = (fargs + ", ierr") if fargs else "ierr"
    out = [f'extern "C" void {real}({", ".join(fparams)}) __attribute__((weak));',
           f'extern "C" void {entry}({", ".join(fparams)}) {{']
    if f08:
        out.append("  MPI_Fint plx_ierr = MPI_SUCCESS;")
        out.append("  MPI_Fint* ierr = ierror != nullptr ? ierror : &plx_ierr;")
    out.append(f'  static plx::mpi::StateSlot plx_state{{"{fn.name}", plx::mpi::{fn.category}}};')
    out.append("  plx::mpi::Call plx_call(plx_state);")
    used = set()
    for _, args in fn.actions:
        for a in args:
            used.update(re.findall(r"\b\w+\b", a))
    conv_before, conv_after = [], []
    count_name = None
    for p in fn.params:
        if p.name in ("count", "incount") and p.base == "int":
            count_name = p.name
    for p in fn.params:
        if p.name not in used or p.base == "void":
            continue
        n = p.name
        if p.base == "int" and not p.pointer:
            conv_before.append(f"  const int {n} = static_cast<int>(*f_{n});")
        elif p.base in F2C and not p.pointer:
            conv_before.append(f"  const {p.base} {n} = {F2C[p.base]}(*f_{n});")
        elif p.base == "int" and p.pointer and not p.array:
            # flag, index, outcount: filled by the call; Fortran indexes from 1
            fix = " - 1" if n == "index" else ""
            conv_after.append(f"  int {n}_v = static_cast<int>(*f_{n}){fix};")
            conv_after.append(f"  int* {n} = &{n}_v;")
        elif p.base == "int" and p.array:  # array_of_indices: from 1
            conv_after.append(f"  int* {n} = plx::mpi::IndicesFromFortran(f_{n}, *f_outcount);")
        elif p.base in F2C and p.pointer and not p.array:
            conv_before.append(f"  {p.base} {n}_v = {F2C[p.base]}(*f_{n});")
            conv_before.append(f"  {p.base}* {n} = &{n}_v;")
            conv_after.append(f"  {n}_v = {F2C[p.base]}(*f_{n});")
        elif p.base == "MPI_Request" and p.array:
            conv_before.append(f"  MPI_Request* {n} = plx::mpi::RequestsFromFortran(f_{n}, {count_name});")
        elif p.base == "MPI_Status" and not p.array:
            conv_before.append(f"  MPI_Fint plx_fstatus[kFStatusInts];")
            conv_before.append(f"  if (f_{n} == {status_ignore}) f_{n} = plx_fstatus;")
            conv_before.append(f"  MPI_Status {n}_v;")
            conv_before.append(f"  MPI_Status* {n} = &{n}_v;")
            conv_after.append(f"  PMPI_Status_f2c(f_{n}, {n});")
        elif p.base == "MPI_Status" and p.array:
            conv_before.append(f"  if (f_{n} == {statuses_ignore}) f_{n} = plx::mpi::FortranStatusScratch({count_name});")
            conv_after.append(f"  MPI_Status* {n} = plx::mpi::StatusesFromFortran(f_{n}, {count_name});")
        else:
            sys.exit(f"spec/mpi.txt:{fn.lineno}: no Fortran conversion for {p.text}")
    # The actions' status lines assume C statuses that may be IGNORE; here
    # they never are, so drop the prelude and keep before/after.
    _, before, after = action_code(fn)
    kinds = [k for k, _ in fn.actions]
    if any(k in ("waitany", "testany", "waitall", "testall", "waitsome", "testsome") for k in kinds):
        out.append("  const MPI_Request* plx_reqs = nullptr;")
    if any(k in ("wait", "test") for k in kinds):
        out.append("  MPI_Request plx_req = MPI_REQUEST_NULL;")
    if any(k in ("recv", "irecv", "mprobe") for k in kinds):
        out.append("  uint64_t plx_match = 0;")
    out.extend(conv_before)
    if before:
        out.append("  if (plx_call.on) {")
        out.extend("  " + l for l in before)
        out.append("  }")
    out.append(f"  {real}({fargs});")
    if after or conv_after:
        out.append("  if (plx_call.on && *ierr == MPI_SUCCESS) {")
        out.extend("  " + l for l in conv_after)
        out.extend("  " + l for l in after)
        out.append("  }")
    out.append("}")
    if not f08:
        sig = ", ".join(fparams)
        for alias in (lower, lower + "__", fn.name.upper()):
            out.append(f'extern "C" void {alias}({sig}) __attribute__((alias("{entry}")));')
    out.append("")
    return out


def gen_fortran(funcs, mpich):
    """Open MPI: both Fortran bindings of every F line. MPICH: only the f08
    entry points without a buffer, which call PMPI_*; those with one
    (mpi_send_f08ts_) call the C MPI_* functions, as its mpif.h and `use mpi`
    bindings do, and need no wrapper."""
    out = [HEADER, '#include "mpi/fortran.h"', "", "using plx::mpi::kFStatusInts;", "",
           "#pragma GCC visibility push(default)", ""]
    for fn in funcs:
        if "F" not in fn.flags:
            continue
        if mpich:
            if not any(p.base == "void" for p in fn.params):
                out.extend(fortran_wrapper(fn, "f08_mpich"))
        else:
            out.extend(fortran_wrapper(fn, "f77"))
            out.extend(fortran_wrapper(fn, "f08"))
    out.append("#pragma GCC visibility pop")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("spec")
    ap.add_argument("--c")
    ap.add_argument("--fortran")
    ap.add_argument("--fortran-mpich")
    ap.add_argument("--list")
    a = ap.parse_args()
    funcs = parse(a.spec)
    outputs = []
    if a.c:
        outputs.append((a.c, gen_c(funcs)))
    if a.fortran:
        outputs.append((a.fortran, gen_fortran(funcs, mpich=False)))
    if a.fortran_mpich:
        outputs.append((a.fortran_mpich, gen_fortran(funcs, mpich=True)))
    if a.list:
        outputs.append((a.list, "".join(f"{fn.name}{' F' if 'F' in fn.flags else ''}\n" for fn in funcs)))
    for path, text in outputs:
        try:
            with open(path) as f:
                if f.read() == text:
                    continue
        except FileNotFoundError:
            pass
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
