#!/usr/bin/env python3
"""The stack of docs/design.md ("The stack"), kept true: every #include and every link between
parity's libraries points down it or stays inside its layer, and no libraries link in a cycle.

The picture is the fenced block right under the heading "## The stack": one layer a line, top
first, the folders of the layer before " -- " (a folder is a path from the source root; "ops/*"
stands for every subfolder of ops/ that no other line names). A file belongs to the layer of the
longest folder that holds it; tests (a tests/ folder) belong to the layer of the folder above.
A target belongs to the layer of the CMakeLists.txt that adds it (add_library, add_executable,
parity_add_test); the libraries it links and the sources it names from the source root lie at its
layer or below.

usage: layers_test.py SOURCE_DIR     exit 0 when the tree keeps the stack, 1 listing each breach
"""
import os
import re
import sys

SOURCES = ('.cpp', '.hpp', '.h', '.cc', '.cu', '.cuh')
SKIP = {'.git', 'build', '.venv', '.bundle', 'reports', 'examples', 'corpus', 'docs', 'ci', 'cmake'}


def read_stack(root):
    text = open(os.path.join(root, 'docs', 'design.md'), encoding='utf-8').read()
    m = re.search(r'^## The stack\n.*?^```\n(.*?)^```', text, re.S | re.M)
    if not m:
        sys.exit('FAIL: docs/design.md has no fenced picture under "## The stack"')
    layers = [line.split(' -- ')[0].split() for line in m.group(1).splitlines() if ' -- ' in line]
    if not layers:
        sys.exit('FAIL: the picture under "## The stack" names no layer ("FOLDER ... -- what it is")')
    # Top first in the picture; rank 0 is the bottom.
    return {folder: len(layers) - 1 - i for i, folders in enumerate(layers) for folder in folders}


def layer_of(path, stack):
    """(rank, folder) of the file or CMakeLists at `path` (relative), or None outside the stack."""
    parts = path.split('/')[:-1]
    while 'tests' in parts:  # a test belongs to the folder above its tests/
        parts = parts[:parts.index('tests')]
    for n in range(len(parts), 0, -1):
        folder = '/'.join(parts[:n])
        if folder in stack:
            return stack[folder], folder
        wildcard = '/'.join(parts[:n - 1] + ['*'])
        if wildcard in stack:
            return stack[wildcard], wildcard
    return None


def source_files(root):
    for d, ds, fs in os.walk(root):
        rel = os.path.relpath(d, root)
        ds[:] = [x for x in ds if not (rel == '.' and x in SKIP) and not x.startswith('.')]
        for f in fs:
            yield os.path.normpath(os.path.join(rel, f))


def include_breaches(root, stack):
    """Includes of parity's headers that point up: <parity/X>, and <X> or "X" where X names a file
    of the tree from the source root (core's and oracles' include path holds it) or, quoted, beside
    the including file."""
    include = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
    breaches, outside = [], set()
    for path in source_files(root):
        if not path.endswith(SOURCES):
            continue
        here = layer_of(path, stack)
        if here is None:
            outside.add(path.split('/')[0])
            continue
        for bracket, name in include.findall(open(os.path.join(root, path), errors='replace').read()):
            candidates = [name[len('parity/'):]] if name.startswith('parity/') else [os.path.normpath(name)]
            if bracket == '"':
                candidates.insert(0, os.path.normpath(os.path.join(os.path.dirname(path), name)))
            target = next((c for c in candidates if os.path.isfile(os.path.join(root, c))), None)
            there = layer_of(target, stack) if target else None
            if there is not None and there[0] > here[0]:
                shown = f'<{name}>' if bracket == '<' else f'"{name}"'
                breaches.append(f'{path} ({here[1]}) includes {shown} ({there[1]}), which lies above it')
    return breaches, outside


def cmake_commands(text, name):
    """The argument lists of every call of the CMake command `name` in `text`, comments removed."""
    text = re.sub(r'#[^\n]*', '', text)
    for m in re.finditer(r'\b' + name + r'\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)', text):
        yield m.group(1).split()


def library_breaches(root, stack):
    """Links and sources that point up. Every target a CMakeLists.txt makes (add_library,
    add_executable, parity_add_test) lies in that file's layer; it may link parity's libraries
    (each parity_* word of target_link_libraries or of parity_add_test's LIBS, generator
    expressions included) and compile sources named from the source root (${PROJECT_SOURCE_DIR}/...)
    of its layer and below, and no libraries may link in a cycle."""
    defined, links, sources = {}, [], []
    word = re.compile(r'parity_[A-Za-z0-9_]+')
    from_root = re.compile(r'\$\{(?:PROJECT|CMAKE)_SOURCE_DIR\}/([^\s;)]+)')
    keywords = {'NAME', 'SOURCES', 'LIBS', 'LABELS', 'COMMAND', 'ARGS', 'TIMEOUT', 'WILL_FAIL', 'GPU', 'ENVIRONMENT'}

    def named_sources(folder, args):
        """The sources among `args`: from the root, or plain names relative to `folder`."""
        out = []
        for arg in args:
            out += from_root.findall(arg)
            if '$' not in arg and arg.endswith(SOURCES):
                out.append(os.path.normpath(os.path.join(folder, arg)))
        return out

    for path in source_files(root):
        if os.path.basename(path) != 'CMakeLists.txt':
            continue
        text = open(os.path.join(root, path), encoding='utf-8').read()
        layer = layer_of(path, stack)
        for command in ('add_library', 'add_executable', 'parity_add_test'):
            for args in cmake_commands(text, command):
                if command == 'parity_add_test':
                    if 'NAME' not in args or args.index('NAME') + 1 >= len(args):
                        continue
                    name = args[args.index('NAME') + 1]
                    if 'LIBS' in args:
                        for arg in args[args.index('LIBS') + 1:]:
                            if arg in keywords:
                                break
                            links += [(name, lib) for lib in word.findall(arg)]
                else:
                    if not args or '$' in args[0]:
                        continue
                    name = args[0]
                defined.setdefault(name, (path, layer))
                sources += [(name, src) for src in named_sources(os.path.dirname(path), args[1:])]
        for args in cmake_commands(text, 'target_link_libraries'):
            links += [(args[0], lib) for arg in args[1:] for lib in word.findall(arg)]
        for args in cmake_commands(text, 'target_sources'):
            sources += [(args[0], src) for src in named_sources(os.path.dirname(path), args[1:])]
    breaches, graph = [], {}
    for user, lib in links:
        if user not in defined or lib not in defined or user == lib:
            continue
        graph.setdefault(user, set()).add(lib)
        (upath, ulayer), (lpath, llayer) = defined[user], defined[lib]
        if ulayer and llayer and llayer[0] > ulayer[0]:
            breaches.append(f'{user} ({upath}) links {lib} ({lpath}), which lies above it')
    for target, src in sources:
        if target not in defined:
            continue
        tpath, tlayer = defined[target]
        slayer = layer_of(src, stack)
        if tlayer and slayer and slayer[0] > tlayer[0]:
            breaches.append(f'{target} ({tpath}) compiles {src} ({slayer[1]}), which lies above it')
    # A cycle of libraries: a depth-first search that meets a library still on its path.
    state, path = {}, []

    def visit(lib):
        state[lib] = 'open'
        path.append(lib)
        for dep in sorted(graph.get(lib, ())):
            if state.get(dep) == 'open':
                breaches.append('libraries link in a cycle: ' + ' -> '.join(path[path.index(dep):] + [dep]))
            elif dep not in state:
                visit(dep)
        path.pop()
        state[lib] = 'done'

    for lib in sorted(graph):
        if lib not in state:
            visit(lib)
    return breaches, len(defined)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    stack = read_stack(root)
    includes, outside = include_breaches(root, stack)
    libraries, count = library_breaches(root, stack)
    for breach in includes + libraries:
        print(breach)
    if outside:
        print('folders with sources that the stack does not place: ' + ', '.join(sorted(outside)))
    if includes or libraries or outside:
        print(f'FAIL: {len(includes)} includes and {len(libraries)} links or sources break the stack of docs/design.md')
        return 1
    print(f'every include, and every link and source of {count} targets, points down the '
          f'{len(set(stack.values()))} layers of docs/design.md')
    return 0


if __name__ == '__main__':
    sys.exit(main())
