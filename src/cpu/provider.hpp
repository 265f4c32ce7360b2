// The CPU backend as a provider (tenferro/backend/provider.hpp): one device, the host.
#pragma once
#include "tenferro/backend/provider.hpp"

namespace tenferro::cpu {

const Provider& provider();

}  // namespace tenferro::cpu
