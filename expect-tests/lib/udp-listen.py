#!/usr/bin/env python3
"""udp-listen.py PORTFILE OUTFILE: the netconsole listener of the tests.

Binds a UDP socket on 127.0.0.1 only, on a port the system chooses, writes
the port to PORTFILE (renamed into place, so a reader never sees half of
it), then appends every datagram it receives to OUTFILE as one line of hex
(a datagram may hold any byte, newlines included).  QEMU's user networking
delivers what the guest sends to 10.0.2.2 to this machine's loopback.
Runs until killed.
"""
import os
import socket
import sys

portfile, outfile = sys.argv[1:3]
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 0))
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % sock.getsockname()[1])
os.rename(portfile + ".tmp", portfile)
with open(outfile, "a") as out:
    while True:
        data = sock.recv(65536)
        out.write(data.hex() + "\n")
        out.flush()
