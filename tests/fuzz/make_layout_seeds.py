#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz_layout_cache from real layout cache files (the app's ~/.cache/.../layouts).

Each cache file holds magic, version, key, digest and the LayoutResult payload (QDataStream,
big-endian). A seed is what the target reads: a selector byte, a 4-byte split, then either the
payload alone (selector 0) or a LayoutRequest with the same boxes followed by the payload
(selector 1), so that the fuzzer starts from both readers and layoutMismatch.
Usage: make_layout_seeds.py OUT_DIR CACHE_FILE...
"""
import struct
import sys

LAYOUT_FORMAT = 4


def read_bytes(data, offset):
    (length,) = struct.unpack_from(">I", data, offset)
    offset += 4
    if length == 0xFFFFFFFF:
        return b"", offset
    return data[offset:offset + length], offset + length


def payload_of(path):
    data = open(path, "rb").read()
    magic, _version = struct.unpack_from(">II", data, 0)
    if magic != 0x524D4C59:
        return None
    offset = 8
    _key, offset = read_bytes(data, offset)
    _digest, offset = read_bytes(data, offset)
    payload, _ = read_bytes(data, offset)
    return payload


def box_count(payload):
    # format, engine (QString: length in bytes then UTF-16), bounds (4 doubles), count
    offset = 4
    (length,) = struct.unpack_from(">I", payload, offset)
    offset += 4 + (0 if length == 0xFFFFFFFF else length) + 32
    (count,) = struct.unpack_from(">I", payload, offset)
    return count


def request_for(boxes):
    out = struct.pack(">II", LAYOUT_FORMAT, boxes)
    out += b"".join(struct.pack(">ddi", 80.0, 30.0, -1) for _ in range(boxes))
    return out + struct.pack(">II", 0, 0)


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    for index, path in enumerate(files):
        payload = payload_of(path)
        if payload is None or len(payload) > 1 << 20:
            continue
        request = request_for(box_count(payload))
        with open(f"{out_dir}/layout_result_{index}", "wb") as f:
            f.write(b"\x00" + struct.pack("<I", 0) + payload)
        with open(f"{out_dir}/layout_request_{index}", "wb") as f:
            f.write(b"\x01" + struct.pack("<I", len(request)) + request + payload)


if __name__ == "__main__":
    main()
