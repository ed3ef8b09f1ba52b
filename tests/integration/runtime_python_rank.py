"""One rank of tests/integration/runtime_python.sh: every collective of the
Python binding (distkit package over libdistkit's C API) against closed-form
results. Prints "[r] python ok" or raises (non-zero exit)."""
import array
import sys

import distkit


def expect(what, got, want):
    if got != want:
        sys.exit("rank %s: %s is %r, expected %r" % (RANK, what, got, want))


with distkit.init() as g:
    RANK, N = g.rank, g.size
    r = RANK

    # all_reduce in place, int64 sum over several ring chunks.
    count = 100003
    x = array.array("q", ((r + 1) * (i + 1) for i in range(count)))
    g.all_reduce(x)
    tri = N * (N + 1) // 2
    bad = [i for i in range(count) if x[i] != (i + 1) * tri]
    expect("int64 sum mismatches", bad[:3], [])

    # out-of-place max on float32; the input is read-only bytes.
    src = array.array("f", [float(r), -float(r)]).tobytes()
    out = array.array("f", [0.0, 0.0])
    g.all_reduce(src, out, op="max", dtype="float32")
    expect("float32 max", list(out), [float(N - 1), 0.0])

    # all_gather of each rank's id, then reduce_scatter back.
    gathered = array.array("i", [0] * N)
    g.all_gather(array.array("i", [r * 10]), gathered)
    expect("all_gather", list(gathered), [k * 10 for k in range(N)])
    block = array.array("i", [0])
    g.reduce_scatter(array.array("i", range(N)), block)
    expect("reduce_scatter", block[0], r * N)

    # broadcast from the last rank; send/recv around the ring.
    b = array.array("d", [3.5 if r == N - 1 else 0.0] * 3)
    g.broadcast(b, root=N - 1)
    expect("broadcast", list(b), [3.5] * 3)
    msg = bytearray(8)
    if r % 2 == 0:
        g.send(r.to_bytes(8, "little"), (r + 1) % N)
        g.recv(msg, (r - 1) % N)
    else:
        g.recv(msg, (r - 1) % N)
        g.send(r.to_bytes(8, "little"), (r + 1) % N)
    expect("recv from left", int.from_bytes(msg, "little"), (r - 1) % N)

    # zero elements is a valid call; a sub-group of even/odd ranks.
    g.all_reduce(bytearray(0), dtype="float32")
    sub = g.split(r % 2, key=r)
    one = array.array("q", [1])
    sub.all_reduce(one)
    expect("sub-group size", (sub.size, one[0]), ((N + 1 - r % 2) // 2,) * 2)
    sub.close()
    g.barrier()

    # Bad arguments are Python errors, not crashes.
    try:
        g.all_reduce(bytearray(4), op="mean", dtype="float32")
        sys.exit("op 'mean' accepted")
    except ValueError as e:
        expect("bad op message", str(e), "unknown op 'mean'; use one of sum, prod, max, min")
    try:
        g.recv(bytearray(4), N + 5)
        sys.exit("recv from a rank that does not exist succeeded")
    except distkit.Error as e:
        expect("bad rank status", e.status, "invalid argument")

    print("[%d] python ok" % r, flush=True)
