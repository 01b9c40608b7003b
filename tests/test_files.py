"""geoik.files: what sits at an output path decides how it is written, never replaced by
something else (a device, a link, a directory)."""

from __future__ import annotations

import errno
import os
import stat
import threading

import pytest

from geoik.files import (
    place,
    same_file,
    save_all_atomic,
    save_atomic,
    special_kind,
    write_text,
)


def _write(text: str):
    def write(tmp: str) -> None:
        with open(tmp, "w") as f:
            f.write(text)

    return write


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real.name)
    save_atomic(link, _write("new"))
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text() == "new"
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to("made.csv")
    write_text(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.csv").read_text() == "made"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "dangling.csv",
        "link.csv",
        "made.csv",
        "real.csv",
    ]


def test_an_existing_file_keeps_its_permissions(tmp_path):
    out = tmp_path / "private.csv"
    out.write_text("old")
    out.chmod(0o600)
    write_text(out, "new")
    assert out.read_text() == "new" and stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_directory_is_refused_by_the_name_given(tmp_path):
    (tmp_path / "d").mkdir()
    for save in (
        lambda p: save_atomic(p, _write("x")),
        lambda p: save_all_atomic([(tmp_path / "ok.csv", _write("x")), (p, _write("x"))]),
    ):
        with pytest.raises(IsADirectoryError) as err:
            save(str(tmp_path / "d"))
        assert err.value.filename == str(tmp_path / "d") and err.value.errno == errno.EISDIR
        # nothing was written, no temporary file was left
        assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]
        assert list((tmp_path / "d").iterdir()) == []


def test_a_named_pipe_is_written_through_once_the_content_is_complete(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_text(fifo, "through the pipe")
    reader.join(timeout=30)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe, not a regular file
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_an_interrupted_write_never_touches_a_pipe(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def interrupted(tmp: str) -> None:
        _write("half")(tmp)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # would block on the pipe if it opened it
        save_atomic(fifo, interrupted)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
def test_a_character_device_is_written_through_not_replaced(tmp_path):
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # what /dev/null is
    write_text(null, "discarded")
    save_all_atomic([(null, _write("a")), (tmp_path / "kept.csv", _write("b"))])
    info = os.lstat(null)
    assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv", "null"]
    assert special_kind(null) == "a character device"


def test_place_moves_a_finished_file_as_save_atomic_would(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    tmp = tmp_path / "staged.md"
    tmp.write_text("new")
    place(tmp, link)
    assert link.is_symlink() and real.read_text() == "new" and not tmp.exists()
    (tmp_path / "d").mkdir()
    tmp.write_text("x")
    with pytest.raises(IsADirectoryError):
        place(tmp, tmp_path / "d")


def test_same_file_sees_links_and_paths_spelled_otherwise(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = tmp_path / "a.bvh"
    a.write_text("x")
    (tmp_path / "sym.bvh").symlink_to(a)
    os.link(a, tmp_path / "hard.bvh")
    (tmp_path / "sub").mkdir()
    assert same_file("a.bvh", a) and same_file("sym.bvh", "a.bvh")
    assert same_file("hard.bvh", "a.bvh") and same_file("sub/../a.bvh", "a.bvh")
    assert same_file("new.png", "./new.png")  # neither exists yet
    assert not same_file("new.png", "a.bvh") and not same_file("new.png", "other.png")
    assert special_kind("a.bvh") is None and special_kind("missing") is None
    assert special_kind("sub") == "a directory"
