"""png_colours.py <file.png>: prints the number of distinct pixel colours of a PNG.

Decodes by hand with zlib (8-bit greyscale, RGB, grey+alpha or RGBA, not interlaced: what
chromium's --screenshot writes), so that the report test needs no imaging library. Exits 1 on
a PNG it cannot decode.
"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace:
        sys.exit(f"{path}: depth {depth}, colour type {colour_type}, interlace {interlace}: not decoded here")
    raw, stride, bpp = zlib.decompress(idat), width * channels, channels
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
            line[i] = (line[i] + pred) & 0xFF
        yield bytes(line), channels
        prev = line


colours = set()
for line, channels in rows(sys.argv[1]):
    colours.update(line[i:i + channels] for i in range(0, len(line), channels))
print(len(colours))
