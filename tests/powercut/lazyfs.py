"""A filesystem that forgets what was not synced: the power-cut rig's disk.

Mounted with FUSE (Debian's python3-pyfuse3 and fuse3), it keeps every file and folder in memory in two
versions: what programs see (every write at once, as through a page cache) and what a disk would keep
after a power cut (a file's data as of its last fsync/fdatasync, a folder's names as of its last fsync:
the strict POSIX reading, as LazyFS has it; ext4 is kinder, e.g. it commits a new file's name with the
file's own fsync). A file whose name survived but whose data was never synced comes back empty, as
delayed allocation leaves it.

    /usr/bin/python3 tests/powercut/lazyfs.py IMAGE MOUNTPOINT

IMAGE is an ordinary folder: its tree is the disk at mount (all of it synced), and at the end the tree the
disk keeps is written back into it. Commands on standard input, one a line, each answered on standard
output: `cut` (the power goes: from now on every operation fails with EIO; answered with what was lost),
`stop` (unmount: after a cut IMAGE gets what was synced, without one what programs saw, as a clean
shutdown writes everything). The mount prints `ready` when it can be used.

It runs under Debian's own python3 (pyfuse3 is a Debian package, not in the project's virtual environment).
Shared writable mmap (SQLite's -shm file) works because files are opened without direct_io (the kernel's
page cache serves the mapping and writes it back here); POSIX locks are the kernel's own (no lock
operations are implemented, so FUSE keeps them locally), enough for processes on one machine.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyfuse3
import trio

EIO = pyfuse3.FUSEError(errno.EIO)


@dataclass
class Node:
    ino: int
    mode: int
    data: bytearray = field(default_factory=bytearray)  # a file's bytes, or a symlink's target
    children: dict[bytes, int] = field(default_factory=dict)  # a folder's names
    parent: int = pyfuse3.ROOT_INODE
    mtime: float = field(default_factory=time.time)
    uid: int = 0
    gid: int = 0
    rdev: int = 0
    links: int = 1

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)


class LazyFS(pyfuse3.Operations):
    def __init__(self) -> None:
        super().__init__()
        self.nodes: dict[int, Node] = {pyfuse3.ROOT_INODE: Node(pyfuse3.ROOT_INODE, stat.S_IFDIR | 0o755)}
        self.next_ino = pyfuse3.ROOT_INODE + 1
        # What the disk keeps: each file's bytes at its last sync, each folder's names at its last sync.
        self.synced_data: dict[int, bytes] = {}
        self.synced_names: dict[int, dict[bytes, int]] = {pyfuse3.ROOT_INODE: {}}
        self.dirty: set[int] = set()
        self.handles: dict[int, int] = {}
        self.next_fh = 1
        self.cut = False
        self.syncs = 0

    # -- the disk's two versions -------------------------------------------------------------------

    def load(self, image: Path) -> None:
        """The image's tree as the mounted disk, all of it synced."""
        def walk(folder: Path, ino: int) -> None:
            for entry in sorted(folder.iterdir()):
                info = entry.lstat()
                node = self._new(info.st_mode, ino)
                if entry.is_symlink():
                    node.data = bytearray(os.fsencode(os.readlink(entry)))
                elif entry.is_dir():
                    walk(entry, node.ino)
                elif entry.is_file():
                    node.data = bytearray(entry.read_bytes())
                self.nodes[ino].children[os.fsencode(entry.name)] = node.ino
        walk(image, pyfuse3.ROOT_INODE)
        for node in self.nodes.values():
            self._sync(node)

    def _sync(self, node: Node) -> None:
        if node.is_dir:
            self.synced_names[node.ino] = dict(node.children)
        else:
            self.synced_data[node.ino] = bytes(node.data)
        self.dirty.discard(node.ino)

    def unsynced(self) -> tuple[int, int]:
        """(files whose data would be lost, folders whose names would be lost) at a cut now."""
        files = sum(1 for ino in self.dirty if not self.nodes[ino].is_dir)
        folders = sum(1 for ino, node in self.nodes.items()
                      if node.is_dir and self.synced_names.get(ino) != node.children)
        return files, folders

    def save(self, image: Path, synced_only: bool) -> None:
        """Write the disk's tree into `image` (emptied first): what survived a cut, or everything."""
        shutil.rmtree(image, ignore_errors=True)
        image.mkdir(parents=True)

        def walk(folder: Path, ino: int, seen: set[int]) -> None:
            names = self.synced_names.get(ino, {}) if synced_only else self.nodes[ino].children
            for name, child in names.items():
                node = self.nodes.get(child)
                if node is None or child in seen:
                    continue
                path = folder / os.fsdecode(name)
                if node.is_dir:
                    path.mkdir(mode=0o700)
                    walk(path, child, seen | {child})
                    os.chmod(path, stat.S_IMODE(node.mode))
                elif stat.S_ISLNK(node.mode):
                    os.symlink(os.fsdecode(bytes(node.data)), path)
                elif stat.S_ISREG(node.mode):
                    path.write_bytes(self.synced_data.get(child, b"") if synced_only else bytes(node.data))
                    os.chmod(path, stat.S_IMODE(node.mode))
                # sockets and fifos do not outlive a reboot
        walk(image, pyfuse3.ROOT_INODE, {pyfuse3.ROOT_INODE})

    # -- helpers -----------------------------------------------------------------------------------

    def _new(self, mode: int, parent: int, ctx: pyfuse3.RequestContext | None = None, rdev: int = 0) -> Node:
        node = Node(self.next_ino, mode, parent=parent, rdev=rdev)
        if ctx is not None:
            node.uid, node.gid = ctx.uid, ctx.gid
        self.next_ino += 1
        self.nodes[node.ino] = node
        self.dirty.add(node.ino)
        return node

    def _live(self) -> None:
        if self.cut:
            raise EIO

    def _node(self, ino: int) -> Node:
        self._live()
        try:
            return self.nodes[ino]
        except KeyError:
            raise pyfuse3.FUSEError(errno.ENOENT) from None

    def _attr(self, node: Node) -> pyfuse3.EntryAttributes:
        attr = pyfuse3.EntryAttributes()
        attr.st_ino = node.ino
        attr.st_mode = node.mode
        attr.st_nlink = len(node.children) + 2 if node.is_dir else node.links
        attr.st_uid, attr.st_gid, attr.st_rdev = node.uid, node.gid, node.rdev
        attr.st_size = len(node.data)
        attr.st_blksize = 4096
        attr.st_blocks = (len(node.data) + 511) // 512
        ns = int(node.mtime * 1e9)
        attr.st_atime_ns = attr.st_mtime_ns = attr.st_ctime_ns = ns
        attr.attr_timeout = attr.entry_timeout = 1.0
        attr.generation = 0
        return attr

    def _child(self, parent: int, name: bytes) -> Node:
        folder = self._node(parent)
        if name == b".":
            return folder
        if name == b"..":
            return self.nodes[folder.parent]
        ino = folder.children.get(name)
        if ino is None:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return self.nodes[ino]

    def _add(self, parent: int, name: bytes, node: Node) -> None:
        folder = self._node(parent)
        if name in folder.children:
            raise pyfuse3.FUSEError(errno.EEXIST)
        folder.children[name] = node.ino
        folder.mtime = time.time()

    # -- operations --------------------------------------------------------------------------------

    async def lookup(self, parent_inode, name, ctx=None):  # noqa: ANN001, ANN201 - pyfuse3's signatures
        return self._attr(self._child(parent_inode, name))

    async def getattr(self, inode, ctx=None):  # noqa: ANN001, ANN201
        return self._attr(self._node(inode))

    async def setattr(self, inode, attr, fields, fh, ctx):  # noqa: ANN001, ANN201
        node = self._node(inode)
        if fields.update_size:
            size = attr.st_size
            if size < len(node.data):
                del node.data[size:]
            else:
                node.data.extend(bytes(size - len(node.data)))
            self.dirty.add(inode)
        if fields.update_mode:
            node.mode = (node.mode & ~0o7777) | (attr.st_mode & 0o7777)
        if fields.update_uid:
            node.uid = attr.st_uid
        if fields.update_gid:
            node.gid = attr.st_gid
        if fields.update_mtime:
            node.mtime = attr.st_mtime_ns / 1e9
        return self._attr(node)

    async def readlink(self, inode, ctx):  # noqa: ANN001, ANN201
        return bytes(self._node(inode).data)

    async def opendir(self, inode, ctx):  # noqa: ANN001, ANN201
        self._node(inode)
        return inode

    async def readdir(self, fh, start_id, token):  # noqa: ANN001, ANN201
        folder = self._node(fh)
        entries = sorted(folder.children.items())
        for index, (name, ino) in enumerate(entries[start_id:], start=start_id + 1):
            if not pyfuse3.readdir_reply(token, name, self._attr(self.nodes[ino]), index):
                break

    async def releasedir(self, fh):  # noqa: ANN001, ANN201
        pass

    async def fsyncdir(self, fh, datasync):  # noqa: ANN001, ANN201
        self._sync(self._node(fh))
        self.syncs += 1

    async def mkdir(self, parent_inode, name, mode, ctx):  # noqa: ANN001, ANN201
        node = self._new(stat.S_IFDIR | (mode & 0o7777), parent_inode, ctx)
        self._add(parent_inode, name, node)
        self.synced_names.setdefault(node.ino, {})
        return self._attr(node)

    async def mknod(self, parent_inode, name, mode, rdev, ctx):  # noqa: ANN001, ANN201
        node = self._new(mode, parent_inode, ctx, rdev)
        self._add(parent_inode, name, node)
        return self._attr(node)

    async def symlink(self, parent_inode, name, target, ctx):  # noqa: ANN001, ANN201
        node = self._new(stat.S_IFLNK | 0o777, parent_inode, ctx)
        node.data = bytearray(target)
        self._add(parent_inode, name, node)
        return self._attr(node)

    async def unlink(self, parent_inode, name, ctx):  # noqa: ANN001, ANN201
        folder = self._node(parent_inode)
        node = self._child(parent_inode, name)
        if node.is_dir:
            raise pyfuse3.FUSEError(errno.EISDIR)
        del folder.children[name]
        folder.mtime = time.time()

    async def rmdir(self, parent_inode, name, ctx):  # noqa: ANN001, ANN201
        folder = self._node(parent_inode)
        node = self._child(parent_inode, name)
        if not node.is_dir:
            raise pyfuse3.FUSEError(errno.ENOTDIR)
        if node.children:
            raise pyfuse3.FUSEError(errno.ENOTEMPTY)
        del folder.children[name]

    async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):  # noqa: ANN001, ANN201
        old = self._node(parent_inode_old)
        new = self._node(parent_inode_new)
        node = self._child(parent_inode_old, name_old)
        if flags & pyfuse3.RENAME_EXCHANGE:
            raise pyfuse3.FUSEError(errno.EINVAL)
        there = new.children.get(name_new)
        if there is not None:
            if flags & pyfuse3.RENAME_NOREPLACE:
                raise pyfuse3.FUSEError(errno.EEXIST)
            if self.nodes[there].is_dir and self.nodes[there].children:
                raise pyfuse3.FUSEError(errno.ENOTEMPTY)
        del old.children[name_old]
        new.children[name_new] = node.ino
        node.parent = parent_inode_new
        old.mtime = new.mtime = time.time()

    async def link(self, inode, new_parent_inode, new_name, ctx):  # noqa: ANN001, ANN201
        node = self._node(inode)
        self._add(new_parent_inode, new_name, node)
        node.links += 1
        return self._attr(node)

    async def open(self, inode, flags, ctx):  # noqa: ANN001, ANN201
        node = self._node(inode)
        if flags & os.O_TRUNC and node.data:
            node.data.clear()
            self.dirty.add(inode)
        return self._handle(node)

    def _handle(self, node: Node) -> pyfuse3.FileInfo:
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = node.ino
        return pyfuse3.FileInfo(fh=fh, direct_io=False, keep_cache=False)

    async def create(self, parent_inode, name, mode, flags, ctx):  # noqa: ANN001, ANN201
        node = self._new(stat.S_IFREG | (mode & 0o7777), parent_inode, ctx)
        self._add(parent_inode, name, node)
        return self._handle(node), self._attr(node)

    def _file(self, fh: int) -> Node:
        self._live()
        return self.nodes[self.handles[fh]]

    async def read(self, fh, off, size):  # noqa: ANN001, ANN201
        return bytes(self._file(fh).data[off:off + size])

    async def write(self, fh, off, buf):  # noqa: ANN001, ANN201
        node = self._file(fh)
        if off > len(node.data):
            node.data.extend(bytes(off - len(node.data)))
        node.data[off:off + len(buf)] = buf
        node.mtime = time.time()
        self.dirty.add(node.ino)
        return len(buf)

    async def fsync(self, fh, datasync):  # noqa: ANN001, ANN201
        self._sync(self._file(fh))
        self.syncs += 1

    async def flush(self, fh):  # noqa: ANN001, ANN201
        self._live()

    async def release(self, fh):  # noqa: ANN001, ANN201
        self.handles.pop(fh, None)

    async def access(self, inode, mode, ctx):  # noqa: ANN001, ANN201
        self._node(inode)
        return True

    async def statfs(self, ctx):  # noqa: ANN001, ANN201
        self._live()
        info = pyfuse3.StatvfsData()
        info.f_bsize = info.f_frsize = 4096
        info.f_blocks = info.f_bfree = info.f_bavail = 1 << 20
        info.f_files = info.f_ffree = info.f_favail = 1 << 20
        info.f_namemax = 255
        return info


async def control(fs: LazyFS, image: Path) -> None:
    """Commands on standard input: `cut`, `stop` (see the module's docstring)."""
    stdin = trio.lowlevel.FdStream(os.dup(0))
    buffered = b""
    while True:
        chunk = await stdin.receive_some(1024)
        if not chunk:
            command = b"stop"
        else:
            buffered += chunk
            if b"\n" not in buffered:
                continue
            command, buffered = buffered.split(b"\n", 1)
        command = command.strip()
        if command == b"cut":
            files, folders = fs.unsynced()
            fs.cut = True
            print(f"cut: {files} files and {folders} folders had unsynced changes", flush=True)
        elif command == b"stop":
            fs.save(image, synced_only=fs.cut)
            print("stopped", flush=True)
            pyfuse3.terminate()
            return
        elif command:
            print(f"unknown command {command.decode(errors='replace')!r}", flush=True)


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: lazyfs.py IMAGE MOUNTPOINT", file=sys.stderr)
        return 2
    image, mountpoint = Path(sys.argv[1]), sys.argv[2]
    fs = LazyFS()
    if image.is_dir():
        fs.load(image)
    options = set(pyfuse3.default_options)
    options.discard("default_permissions")  # root runs the rig; permissions are the table's own business
    options |= {"fsname=kikimimi-lazyfs", "subtype=lazyfs"}
    pyfuse3.init(fs, mountpoint, options)
    print("ready", flush=True)

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pyfuse3.main)
            nursery.start_soon(control, fs, image)

    try:
        trio.run(run)
    finally:
        pyfuse3.close(unmount=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
