// Registers my kernel with parity's LoRA family: one PARITY_REGISTER_SUBJECT per subject. The
// name is what parity_add_subject_tests(... SUBJECT <name>) and `parity replay --subject` use.
#include <parity/subjects/subject_registry.hpp>
#include "my_lora.hpp"

using parity::subjects::LoraSubjectInfo;

PARITY_REGISTER_SUBJECT(my_lora_host, LoraSubjectInfo{.name = "my-lora-host",
                                                      .backend = "host",
                                                      .description = "my LoRA kernel, host path",
                                                      .make = &my_lora::make_host});

PARITY_REGISTER_SUBJECT(my_lora_host_broken,
                        LoraSubjectInfo{
                            .name = "my-lora-host-broken",
                            .backend = "host",
                            .description = "my LoRA kernel, host path, with the scale forgotten (must be caught)",
                            .make = &my_lora::make_broken_host});

#if MY_LORA_CUDA
// The CUDA kernel names its host path as its twin: cross_backend_bitwise then checks that both
// give the same bits on every generated case.
PARITY_REGISTER_SUBJECT(my_lora_cuda, LoraSubjectInfo{.name = "my-lora-cuda",
                                                      .backend = "cuda",
                                                      .description = "my LoRA kernel, CUDA",
                                                      .host_twin = "my-lora-host",
                                                      .unavailable_reason = &my_lora::cuda_unavailable,
                                                      .make = &my_lora::make_cuda});
#endif
