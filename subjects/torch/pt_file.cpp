#include <parity/subjects/torch/pt_file.hpp>

#include <ATen/core/Dict.h>
#include <ATen/core/ivalue.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>

#include <parity/subjects/torch/convert.hpp>

namespace parity::subjects::torch_impl {

// torch::jit::pickle_save, with one difference: its Pickler tags the dict with
// torch.jit._pickle.restore_type_tag, a global that torch.load's default (weights_only=True,
// PyTorch >= 2.6) refuses. Untagged, the file holds only a dict, strings and tensors, which it
// loads.
std::vector<char> pt_bytes(const std::vector<std::pair<std::string, Tensor>>& tensors) {
  c10::Dict<std::string, at::Tensor> dict;
  for (const auto& [name, tensor] : tensors) dict.insert(name, to_aten(tensor).contiguous());
  std::vector<char> pickle;
  torch::jit::Pickler pickler([&](const char* bytes, size_t n) { pickle.insert(pickle.end(), bytes, bytes + n); },
                              nullptr, nullptr, nullptr, nullptr, /*tag_aggregates=*/false);
  pickler.protocol();
  pickler.pushIValue(c10::IValue(dict));
  pickler.stop();
  std::vector<char> out;
  {
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, size_t n) {
      out.insert(out.end(), static_cast<const char*>(bytes), static_cast<const char*>(bytes) + n);
      return n;
    });
    torch::jit::writeArchiveAndTensors("data", pickle.data(), pickle.size(), pickler.tensorData(), writer);
    writer.writeEndOfFile();
  }
  return out;
}

}  // namespace parity::subjects::torch_impl
