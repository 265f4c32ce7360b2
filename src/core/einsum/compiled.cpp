// EinsumProgram (tenferro/einsum.hpp): an einsum planned once and, where the backend records
// work, recorded once (Backend::capture) around the program's own input tensors.
#include <utility>
#include <vector>

#include "core/check.hpp"
#include "core/session.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro {

namespace {
constexpr const char* kProgramOp = "einsum_program";

std::vector<TensorView> views_of(std::span<const Tensor> ts) { return {ts.begin(), ts.end()}; }

/// f inside a session of be unless the calling thread has one open (sessions do not nest).
template <class F> void in_session(Backend& be, F&& f) {
  if (detail::session_open(be))
    f();
  else
    with_session(be, f);
}
}  // namespace

struct EinsumProgram::Impl {
  Backend* be = nullptr;
  std::shared_ptr<const EinsumPlan> plan;
  std::vector<Shape> shapes;
  DType dtype = DType::F64;
  std::vector<Tensor> inputs;          // made on first use where nothing is recorded
  std::unique_ptr<RecordedWork> work;  // null: runs execute the lowered program

  void make_inputs() {
    if (inputs.size() == shapes.size()) return;
    for (const Shape& s : shapes) inputs.push_back(be->allocate(dtype, s));
  }

  /// Copies `operands` (checked, or null: inputs as they are) into the inputs, replays and
  /// copies the result out, in one session: one submission for the copies and the replay.
  Tensor replay(std::span<const TensorView> operands) {
    Tensor out;
    in_session(*be, [&] {
      for (std::size_t i = 0; i < operands.size(); ++i) {
        const TensorView& t = operands[i];
        const Tensor& in = inputs[i];
        if (t.numel() == 0 || (t.storage() == in.storage() && t.layout() == in.layout())) continue;
        be->copy(t, in);
      }
      work->replay();
      const Tensor& r = work->outputs()[0];
      out = be->allocate(dtype, r.shape());
      if (out.numel() > 0) be->copy(r, out);
    });
    return out;
  }
};

EinsumProgram::EinsumProgram(Backend& be, std::string_view subscripts, std::span<const Shape> shapes, DType dtype,
                             const EinsumOptions& opts)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.be = &be;
  m.dtype = dtype;
  m.plan = make_plan(subscripts, shapes, opts);
  const std::size_t n = m.plan->spec.num_inputs();
  if (n >= 2) {
    TENFERRO_CHECK(is_inexact(dtype), unsupported, kProgramOp, "dtype",
                   "contracting two or more operands needs f32, f64, c32 or c64, got ", dtype_name(dtype));
    TENFERRO_CHECK(be.supports(OpId::dot_general, dtype), unsupported, kProgramOp, "dtype", "[", be.name(),
                   "] dot_general on ", dtype_name(dtype), " not supported by this backend");
  }
  m.shapes.assign(shapes.begin(), shapes.end());
  m.make_inputs();
  try {
    m.work = be.capture(m.inputs, [&] {
      const std::vector<TensorView> v = views_of(m.inputs);
      return std::vector<Tensor>{execute(be, m.plan->spec, m.plan->path, v)};
    });
  } catch (const Error& e) {
    // Work that cannot be recorded (it waits for the device or reaches host memory), or whose
    // intermediates do not fit beside what the device holds now (a capture cannot wait for
    // memory that queued work still uses), runs directly; every other error is the einsum's own.
    const bool unrecordable = e.kind() == ErrorKind::runtime_state && e.op() == "record";
    if (!unrecordable && e.kind() != ErrorKind::out_of_memory) throw;
  }
  if (!m.work) m.inputs.clear();  // made again only if asked for (inputs())
}

EinsumProgram::EinsumProgram(Backend& be, std::string_view subscripts, std::initializer_list<Shape> shapes,
                             DType dtype, const EinsumOptions& opts)
    : EinsumProgram(be, subscripts, std::span<const Shape>(shapes.begin(), shapes.size()), dtype, opts) {}

EinsumProgram::~EinsumProgram() = default;
EinsumProgram::EinsumProgram(EinsumProgram&&) noexcept = default;
EinsumProgram& EinsumProgram::operator=(EinsumProgram&&) noexcept = default;

Tensor EinsumProgram::operator()(std::span<const TensorView> operands) {
  Impl& m = *impl_;
  const std::size_t n = m.shapes.size();
  TENFERRO_CHECK(operands.size() == n, invalid_argument, kProgramOp, "operands", "the program has ", n,
                 " operand(s), got ", operands.size());
  for (std::size_t i = 0; i < n; ++i) {
    const TensorView& t = operands[i];
    detail::check_resident(*m.be, t, kProgramOp, "operands");
    TENFERRO_CHECK(t.shape() == m.shapes[i], shape_mismatch, kProgramOp, "operands", "operand ", i, " has shape ",
                   t.shape(), " but the program was made for ", m.shapes[i]);
    TENFERRO_CHECK(t.dtype() == m.dtype, dtype_mismatch, kProgramOp, "operands", "operand ", i, " has dtype ",
                   dtype_name(t.dtype()), " but the program was made for ", dtype_name(m.dtype));
  }
  if (!m.work) return execute(*m.be, m.plan->spec, m.plan->path, operands);
  return m.replay(operands);
}

Tensor EinsumProgram::operator()(std::initializer_list<TensorView> operands) {
  return (*this)(std::span<const TensorView>(operands.begin(), operands.size()));
}

Tensor EinsumProgram::run() {
  Impl& m = *impl_;
  if (!m.work) {
    m.make_inputs();
    return execute(*m.be, m.plan->spec, m.plan->path, views_of(m.inputs));
  }
  return m.replay({});
}

std::span<const Tensor> EinsumProgram::inputs() {
  impl_->make_inputs();
  return impl_->inputs;
}
bool EinsumProgram::recorded() const { return impl_->work != nullptr; }
const EinsumPlan& EinsumProgram::plan() const { return *impl_->plan; }
Backend& EinsumProgram::backend() const { return *impl_->be; }
DType EinsumProgram::dtype() const { return impl_->dtype; }

}  // namespace tenferro
