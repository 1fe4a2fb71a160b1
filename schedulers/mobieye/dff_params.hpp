#pragma once
/// Parameters of the `dff` and `adff` schedulers (dff_scheduler.hpp), read from a scenario's
/// resolved `scheduler:` mapping (schema: dff_param_schema()).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schedulers/mobieye/key_frames.hpp"
#include "schedulers/mobieye/map_table.hpp"
#include "sim/core/json_access.hpp"
#include "sim/core/param_schema.hpp"

namespace coinfer::mobieye {

struct DffParams {
  std::string trace_file;  ///< video trace (video_trace.hpp)
  std::string resolution;  ///< "WxH" of the trace's sizes ("": its first)
  // Devices and network (defaults: platforms/mobieye.yaml's names).
  std::string phone = "pixel2", decoder = "server", gpu = "gtx1080", key_gpu = "gtx_titan", network = "lte";
  std::string inter_model = "flownet_dff", key_model = "resnet101";
  std::vector<std::int64_t> inter_input{6, 320, 512}, key_input{3, 600, 1000};
  int interval = 10;
  std::optional<VdsParams> vds;
  std::optional<int> delay;  ///< the configured D_f (checked <= the key interval), or none
  double inter_ms = 0.0;     ///< fixed inter-pass time; 0: the inter model's on `gpu`
  double key_ms = 0.0;       ///< fixed FeatNet time; 0: the key model's on its GPU
  double encode_ms = 0.0;    ///< 0: the phone calibration's codec.encode_ms
  double decode_ms = 3.9;    ///< [Mao-PhD §4.6.2]
  double other_ms = 0.0;     ///< eq. 4.1's other per-frame work
  double result_bytes = 1000.0;
  /// The paper's frame size as an input: when set, every upload is bpp x W x H / 8 bytes at
  /// `resolution` instead of the trace's encoded bytes ([Mao-PhD §4.6.2]: 1.98 Mb per 1280x960
  /// frame, 1.611 bits/px, a stated measurement of the paper's encoder).
  std::optional<double> frame_bits_per_pixel;
  std::optional<MapTable> map_table;
  std::string ssi_file;  ///< SSI profile (ssi_profile.hpp), "" for dense inter passes

  /// Reads the resolved parameters; throws `InputError("", "scheduler.delay", "expected <=
  /// interval (6), got 7")` and the like.
  static DffParams from_json(const Json& params);
};

ParamSchema dff_param_schema();

}  // namespace coinfer::mobieye
