// SPEC section 7, "The calls it makes", written out by hand as the specification lists them: the
// checks hold what the server serves against this list, never against the server's own declarations.
// The serial service (affirmSecretKey, saveSecretKey, sn, checksn) is a separate service with paths
// SPEC does not show; SERIAL_CALLS lists it apart.
export interface SpecCall {
  method: "GET" | "POST" | "DELETE";
  /** /merchant/<call>, or /admin/<call> for the versions. */
  path: string;
  group: string;
}

const calls = (group: string, base: string, list: string): SpecCall[] =>
  list
    .trim()
    .split(/\s+/)
    .map((entry) => {
      const [method, call] = entry.split(":") as [SpecCall["method"], string];
      return { method, path: `${base}/${call}`, group };
    });

export const SPEC_CALLS: SpecCall[] = [
  ...calls(
    "Auth and common",
    "/merchant",
    `
      POST:login GET:menu GET:setting-detail GET:setting-no GET:version-check POST:version-upgrade
      POST:setting-update
    `,
  ),
  ...calls(
    "Admin versions",
    "/admin",
    `
      GET:version-list POST:version-add POST:version-update DELETE:version-delete
    `,
  ),
  ...calls(
    "Operators",
    "/merchant",
    `
      GET:operator-list GET:operator-detail GET:operator-recycle-list GET:operator-machine-list
      POST:operator-add POST:operator-update POST:operator-recycle-recover POST:operator-bind-machine
      POST:operator-unbind-machine DELETE:operator-delete
    `,
  ),
  ...calls(
    "Agents (manage)",
    "/merchant",
    `
      GET:manage-list GET:manage-detail GET:manage-all GET:manage-recycle-list GET:manage-direct-down
      GET:manage-up GET:manage-cate-list GET:manage-cate-all GET:manage-role-list GET:manage-role-detail
      GET:manage-role GET:manage-role-up GET:manage-role-permission GET:manage-profit-user
      GET:manage-profit-page GET:manage-all-down GET:manage-pid-list GET:manage-role-down POST:manage-add
      POST:manage-update POST:modify-password POST:manage-recycle-recover POST:manage-cate-add
      POST:manage-cate-update POST:manage-role-add POST:manage-role-update POST:manage-profit-save
      DELETE:manage-delete DELETE:manage-recycle-destroy DELETE:manage-cate-delete
      DELETE:manage-role-delete
    `,
  ),
  ...calls(
    "Devices (machine)",
    "/merchant",
    `
      GET:machine-import-template GET:machine-list GET:machine-all GET:machine-qrcode GET:machine-export
      GET:machine-statistics GET:machine-iccid GET:machine-ad-list GET:statistics-machine
      GET:renovation-all-my GET:machine-detail GET:machine-application-plan GET:get-open-plugins
      POST:machine-import-check POST:machine-import-confirm POST:machine-bind-room POST:machine-bind-plan
      POST:machine-bind-manage POST:machine-replenishment-check POST:machine-replenishment-goods
      POST:machine-bg-set POST:machine-put-ad POST:machine-bind-macname POST:machine-cup-set
      POST:machine-baketime-set POST:machine-towel-set POST:machine-unbind-macname DELETE:machine-delete
      DELETE:machine-ad-delete
    `,
  ),
  ...calls(
    "Home statistics",
    "/merchant",
    `
      GET:statistics-total GET:statistics-trade GET:statistics-order GET:statistics-line-machine
      GET:statistics-dealt GET:statistics-manage
    `,
  ),
  ...calls(
    "Orders",
    "/merchant",
    `
      GET:service-list GET:service-list-not GET:service-check GET:order-list GET:order-export
      GET:order-recycle GET:machine-clean-log-list GET:charge-log-list POST:service-accept
      POST:service-finish POST:order-refund POST:order-check POST:order-cancel-drop POST:order-end
      POST:order-dryer-end
    `,
  ),
  ...calls(
    "Goods",
    "/merchant",
    `
      GET:goods-list GET:goods-down GET:goods-detail GET:goods-all GET:goods-recycle-list
      GET:goods-cate-list GET:goods-cate-all GET:goods-setting-get GET:goods-sku-all GET:goods-sku-active
      GET:goods-sku-list GET:goods-sku-coffee GET:manage-stock-list POST:goods-add POST:goods-update
      POST:goods-recycle-recover POST:goods-cate-add POST:goods-cate-update POST:goods-image
      POST:goods-sku-add POST:goods-sku-update POST:goods-setting-set DELETE:goods-delete
      DELETE:goods-recycle-destroy DELETE:goods-cate-delete DELETE:goods-sku-delete
    `,
  ),
  ...calls(
    "Applications",
    "/merchant",
    `
      GET:application-list GET:application-all GET:application-charge-get POST:application-add
      POST:application-update POST:application-install POST:application-upgrade
      POST:application-charge-set DELETE:application-delete
    `,
  ),
  ...calls(
    "Charging and deposit plans",
    "/merchant",
    `
      GET:charge-plan-list GET:charge-plan-detail GET:deposit-get-config GET:deposit-detail-config
      POST:charge-plan-add POST:charge-plan-edit POST:charge-plan-update POST:deposit-save-config
      POST:deposit-update-config DELETE:charge-plan-delete DELETE:deposit-delete-config
      GET:charge-pile-plan-list GET:charge-pile-plan-detail POST:charge-pile-plan-add
      POST:charge-pile-plan-update GET:dryer-plan-list GET:dryer-plan-detail POST:dryer-plan-add
      POST:dryer-plan-update DELETE:dryer-plan-delete GET:car-wash-plan-list GET:car-wash-plan-detail
      POST:car-wash-plan-add POST:car-wash-plan-update DELETE:car-wash-plan-delete
    `,
  ),
  ...calls(
    "Channel plans",
    "/merchant",
    `
      GET:channel-plan-list GET:channel-plan-detail GET:channel-plan-all GET:channel-machine-list
      GET:channel-plan-recycle-list GET:channel-plan-my GET:renovation-home-type POST:channel-plan-add
      POST:channel-plan-update POST:channel-plan-recycle-recover POST:channel-plan-sync
      DELETE:channel-plan-delete DELETE:channel-plan-recycle-destroy
    `,
  ),
  ...calls(
    "Pages (renovation)",
    "/merchant",
    `
      GET:renovation-list GET:renovation-detail GET:renovation-type GET:renovation-all GET:charge-plan-all
      POST:renovation-add POST:renovation-update
    `,
  ),
  ...calls(
    "Plugins",
    "/merchant",
    `
      GET:plugins-list GET:get-config-plugins POST:plugins-update POST:set-config-plugins
    `,
  ),
  ...calls(
    "Settings",
    "/merchant",
    `
      GET:banner-list-list GET:banner-list-all GET:notice-list-list GET:notice-list-all
      GET:service-setting-list GET:service-setting-type GET:service-setting-all GET:url-list
      POST:banner-list-add POST:banner-list-update POST:notice-list-add POST:notice-list-update
      POST:service-setting-add POST:service-setting-update POST:url-add POST:url-edit
      DELETE:banner-list-delete DELETE:notice-list-delete DELETE:service-setting-delete DELETE:url-delete
    `,
  ),
  ...calls(
    "Outlets",
    "/merchant",
    `
      GET:shop-list GET:shop-all GET:shop-recycle-list GET:shop-cate-list GET:shop-cate-all
      GET:shop-detail GET:shop-check-wifi GET:shop-wifi-list POST:shop-add POST:shop-update
      POST:shop-recycle-recover POST:shop-cate-add POST:shop-cate-update POST:shop-wifi-add
      POST:shop-wifi-update DELETE:shop-delete DELETE:shop-recycle-destroy DELETE:shop-cate-delete
      DELETE:shop-wifi-delete
    `,
  ),
  ...calls(
    "Data",
    "/merchant",
    `
      GET:data-withdraw-list GET:machine-scan-log-user GET:data-profit-list GET:data-promote-profit-list
      GET:recycle-withdraw-list GET:data-profit-export POST:data-withdraw-action
      POST:recycle-withdraw-action
    `,
  ),
];

export const SERIAL_CALLS = ["GET:affirmSecretKey", "POST:saveSecretKey", "POST:sn", "GET:checksn"];
