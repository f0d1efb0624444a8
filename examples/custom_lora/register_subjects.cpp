// Registers my kernel with parity's ops lora_forward and lora_backward: one PARITY_REGISTER_OP_SUBJECT
// per op and subject, the forward and backward kernels of one implementation under one name. The
// name is what parity_add_subject_tests(... SUBJECT <name>) and `--replay --subject` use.
#include <parity/ops/framework/op_subject.hpp>
#include "my_lora.hpp"

using parity::ops::OpSubjectInfo;

PARITY_REGISTER_OP_SUBJECT(my_lora_host_forward, "lora_forward",
                           OpSubjectInfo{.name = "my-lora-host",
                                         .backend = "host",
                                         .description = "my LoRA kernel's forward, host path",
                                         .make = &my_lora::make_host_forward});
PARITY_REGISTER_OP_SUBJECT(my_lora_host_backward, "lora_backward",
                           OpSubjectInfo{.name = "my-lora-host",
                                         .backend = "host",
                                         .description = "my LoRA kernel's backward, host path",
                                         .make = &my_lora::make_host_backward});

PARITY_REGISTER_OP_SUBJECT(my_lora_host_broken_forward, "lora_forward",
                           OpSubjectInfo{.name = "my-lora-host-broken",
                                         .backend = "host",
                                         .description = "my LoRA forward with the scale forgotten (must be caught)",
                                         .make = &my_lora::make_broken_host_forward});
PARITY_REGISTER_OP_SUBJECT(my_lora_host_broken_backward, "lora_backward",
                           OpSubjectInfo{.name = "my-lora-host-broken",
                                         .backend = "host",
                                         .description = "my LoRA backward with the scale forgotten (must be caught)",
                                         .make = &my_lora::make_broken_host_backward});

#if MY_LORA_CUDA
// The CUDA kernels name the host path as their twin: cross_backend_bitwise then checks that both
// give the same bits on every generated case.
PARITY_REGISTER_OP_SUBJECT(my_lora_cuda_forward, "lora_forward",
                           OpSubjectInfo{.name = "my-lora-cuda",
                                         .backend = "cuda",
                                         .description = "my LoRA kernel's forward, CUDA",
                                         .host_twin = "my-lora-host",
                                         .unavailable_reason = &my_lora::cuda_unavailable,
                                         .make = &my_lora::make_cuda_forward});
PARITY_REGISTER_OP_SUBJECT(my_lora_cuda_backward, "lora_backward",
                           OpSubjectInfo{.name = "my-lora-cuda",
                                         .backend = "cuda",
                                         .description = "my LoRA kernel's backward, CUDA",
                                         .host_twin = "my-lora-host",
                                         .unavailable_reason = &my_lora::cuda_unavailable,
                                         .make = &my_lora::make_cuda_backward});
#endif
