#!/usr/bin/env bash
# export_cli_test.sh PARITY EXPORT_REFERENCE PYTHON REGRESSIONS_DIR
# `parity export` end to end: every lora reproducer of the regression corpus, a transition one (its
# case transition_step's), and an op's (linear's, written by `parity check` on a probe that rounds
# before the bias), is
# exported to a .pt file, which PyTorch's torch.load (PYTHON, the project's venv) must read as a
# dict whose names, order, dtypes, shapes and every element's bits are those parity materialises
# for the case (export_reference); and each reproducer's float32 patches must be found at their
# elements; an sdpa_varlen reproducer's export holds its cu_seqlens and max_seqlen. Bad input exits 2 naming the file, field or flag. Exits 77 (skipped) when PYTHON
# cannot import torch.
parity=$1 reference=$2 python=$3 regressions=$4
source "$(dirname "$0")/../../core/tests/expect.sh"
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "export_cli_test: $python cannot import torch: skipped"
  exit 77
fi

pairs=()
expect 1 "FAILED" -- "$parity" check linear --subject probe-bf16-before-bias --property forward_accuracy --seed 1 \
  --repro-dir "$work/op"
op_repros=("$work"/op/*.json)
[ -s "${op_repros[0]}" ] || fail "parity check wrote no linear reproducer"
transition_params='"type":1,"step":0.015625,"sigma_max":0.875,"noise_level":0.75,"normaliser":1,"dtype.act":16,"dtype.f32":32'
printf '{"schema":"parity.repro/1","subject":"parity-host","property":"matches_formula","case":{%s},"observed":{"property":"matches_formula","outcome":"fails"}}\n' \
  '"family":"transition","seed":3,"dims":{"B":2,"n":5},"params":{'"$transition_params"',"sigma.0":1,"sigma.1":0.5},"patches":[{"operand":"x","index":3,"bits":"0x3f80","dtype":"bf16"}]' \
  >"$work/transition.json"
for repro in "$regressions"/lora-*.json "$work/transition.json" "${op_repros[@]}"; do
  name=$(basename "$repro" .json)
  expect 0 "torch.load" -- "$parity" export "$repro" --out "$work/$name.pt"
  "$reference" "$repro" >"$work/$name.reference.json" || fail "export_reference $repro"
  pairs+=("$work/$name.pt" "$work/$name.reference.json" "$repro")
done
"$python" - "${pairs[@]}" <<'PY' 2>&1 | grep -v -e "Failed to initialize NumPy" -e "_conversion_method_template"
import json, struct, sys
import torch
dtypes = {"bf16": (torch.bfloat16, torch.int16, 0xFFFF), "f16": (torch.float16, torch.int16, 0xFFFF),
          "f32": (torch.float32, torch.int32, 0xFFFFFFFF),
          "f64": (torch.float64, torch.int64, 0xFFFFFFFFFFFFFFFF)}
failed = 0
for k in range(1, len(sys.argv), 3):
    pt, reference, repro = sys.argv[k:k + 3]
    try:
        loaded = torch.load(pt)  # the default, weights_only=True since PyTorch 2.6: no code runs
        expected = json.load(open(reference))
        assert isinstance(loaded, dict), type(loaded)
        assert list(loaded) == [e["name"] for e in expected], (list(loaded), [e["name"] for e in expected])
        for e in expected:
            t = loaded[e["name"]]
            dtype, as_int, mask = dtypes[e["dtype"]]
            assert t.dtype == dtype, (e["name"], t.dtype, e["dtype"])
            assert list(t.shape) == e["shape"], (e["name"], list(t.shape), e["shape"])
            bits = [b & mask for b in t.contiguous().view(as_int).flatten().tolist()]
            assert bits == e["bits"], (e["name"], "bits differ")
        # A patch of dtype f32 (the default) holds float32 bits, which a bf16 operand holds rounded to
        # nearest even; a patch of the operand's own dtype (an op's straddle) holds its bits as they are.
        for p in json.load(open(repro))["case"]["patches"]:
            t = loaded[p["operand"]].flatten()
            if p.get("dtype", "f32") != "f32":
                dtype, as_int, mask = dtypes[p["dtype"]]
                assert t.dtype == dtype, (p, t.dtype)
                got_bits = t[p["index"]].reshape(1).view(as_int).item() & mask
                assert got_bits == int(p["bits"], 16), (p, hex(got_bits))
                continue
            f32 = struct.unpack("<f", struct.pack("<I", int(p["bits"], 16)))[0]
            want = torch.tensor([f32], dtype=torch.float32).to(t.dtype)
            got = t[p["index"]].reshape(1)
            assert torch.equal(got.isnan(), want.isnan()) and (bool(got.isnan().all()) or torch.equal(got, want)), (p, got, want)
        print(f"ok:   {pt}: {', '.join(f'{n} {tuple(v.shape)} {v.dtype}' for n, v in loaded.items())}")
    except Exception as e:
        print(f"FAIL: {pt}: {e!r}")
        failed += 1
sys.exit(1 if failed else 0)
PY
[ "${PIPESTATUS[0]}" -eq 0 ] || failures=$((failures + 1))

# A ragged op's export is self-contained: sdpa_varlen's packed q, k, v come with their offsets
# cu_seqlens (the reproducer's lengths summed) and max_seqlen (the case's S).
expect 1 "FAILED" -- "$parity" check sdpa_varlen --subject probe-keys-past-length --property forward_accuracy \
  --seed 1 --repro-dir "$work/varlen"
varlen_repros=("$work"/varlen/*.json)
expect 0 "torch.load" -- "$parity" export "${varlen_repros[0]}" --out "$work/varlen.pt"
"$python" - "$work/varlen.pt" "${varlen_repros[0]}" <<'PY' 2>&1 | grep -v -e "Failed to initialize NumPy" -e "_conversion_method_template"
import json, sys
import torch
loaded = torch.load(sys.argv[1])
case = json.load(open(sys.argv[2]))["case"]
B, S = case["dims"]["B"], case["dims"]["S"]
lengths = [int(case["params"][f"S.{b}"]) for b in range(B)]
try:
    cu = loaded["cu_seqlens"]
    assert cu.shape == (B + 1,), cu.shape
    assert [int(x) for x in cu.tolist()] == [sum(lengths[:b]) for b in range(B + 1)], (cu, lengths)
    assert loaded["max_seqlen"].dim() == 0 and loaded["max_seqlen"].item() == S, (loaded["max_seqlen"], S)
    for name in ("q", "k", "v"):
        assert loaded[name].shape[0] == sum(lengths), (name, loaded[name].shape, lengths)
    print(f"ok:   {sys.argv[1]}: cu_seqlens {cu.int().tolist()}, max_seqlen {int(loaded['max_seqlen'].item())}")
except Exception as e:
    print(f"FAIL: {sys.argv[1]}: {e!r}")
    sys.exit(1)
PY
[ "${PIPESTATUS[0]}" -eq 0 ] || failures=$((failures + 1))

expect 2 "--out" -- "$parity" export "$regressions/$(ls "$regressions" | head -1)"
expect 2 "export needs one REPRO" -- "$parity" export --out "$work/x.pt"
expect 2 "missing.json" -- "$parity" export "$work/missing.json" --out "$work/x.pt"
python3 - "$regressions/$(ls "$regressions" | grep '^lora-' | head -1)" "$work/model.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["case"]["family"] = "model"
json.dump(r, open(sys.argv[2], "w"))
PY
expect 2 "case.family: 'model' has no exported tensors" -- "$parity" export "$work/model.json" --out "$work/x.pt"
[ -e "$work/x.pt" ] && fail "a file was written for bad input"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "export_cli_test: every export loads in PyTorch with the reproducer's tensors"
