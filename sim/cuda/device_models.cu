// The models with a device form (device_model.hpp): each registers here.
#include "device_model.hpp"

namespace throng {

std::unique_ptr<DeviceModel> makeOrcaDevice();
std::unique_ptr<DeviceModel> makeBioCrowdsDevice();
std::unique_ptr<DeviceModel> makeContinuumDevice();

std::unique_ptr<DeviceModel> makeDeviceModel(std::string_view name) {
  if (name == "orca") return makeOrcaDevice();
  if (name == "biocrowds") return makeBioCrowdsDevice();
  if (name == "continuum") return makeContinuumDevice();
  return nullptr;
}

}  // namespace throng
