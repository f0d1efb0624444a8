#include <parity/subjects/builtin/lora_host.hpp>

namespace parity::subjects::builtin {

template class LoraHostTwin<StandardArithmetic>;

std::unique_ptr<LoraSubject> make_lora_host_twin() { return std::make_unique<LoraHostTwin<StandardArithmetic>>(); }

}  // namespace parity::subjects::builtin
