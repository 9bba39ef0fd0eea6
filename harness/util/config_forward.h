// Forward declarations for the headers of config sections, which name
// JsonObjectReader (their FromJson/ReadJson) and ConfigFields (their field
// list) without needing either's definition.
#pragma once

namespace dmbench {

class JsonObjectReader;
template <typename Struct>
class ConfigFields;

}  // namespace dmbench
