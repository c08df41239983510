// The versioned merge operator of the `tree` family: sums TreeCounters, so
// import adds a game to a tree entry without reading it first.
#include <rocksdb/merge_operator.h>

#include "rocks.hpp"
#include "virrey/store/tree_counters.hpp"

namespace virrey::store {

namespace {

class TreeMergeOperator final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return kTreeMergeOperatorName.data(); }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    if (keep_lone_operand(in, out)) return true;  // most entries past the first moves
    TreeCounters sum;
    if (in.existing_value && !add(sum, *in.existing_value)) return false;
    for (const rocksdb::Slice& op : in.operand_list)
      if (!add(sum, op)) return false;
    out->new_value = encode_tree_counters(sum);
    return true;
  }

  bool PartialMergeMulti(const rocksdb::Slice&, const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value, rocksdb::Logger*) const override {
    TreeCounters sum;
    for (const rocksdb::Slice& op : operands)
      if (!add(sum, op)) return false;
    *new_value = encode_tree_counters(sum);
    return true;
  }

  bool AllowSingleOperand() const override { return false; }

 private:
  static bool add(TreeCounters& sum, const rocksdb::Slice& s) {
    auto c = decode_tree_counters(std::string_view(s.data(), s.size()));
    if (!c) return false;
    sum.add(*c);
    return true;
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> make_tree_merge_operator() {
  return std::make_shared<TreeMergeOperator>();
}

}  // namespace virrey::store
