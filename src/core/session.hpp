// Sessions (with_session, session.cpp): what core code asks about them.
#pragma once
#include "tenferro/backend/backend.hpp"

namespace tenferro::detail {

/// True when the calling thread has a session of `be` open (with_session would refuse one).
bool session_open(const Backend& be);

}  // namespace tenferro::detail
