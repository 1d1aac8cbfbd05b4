// A lane restocked shows its new level from the restock's answer, before the lanes are asked again
// (src/extensions/restock-grid/restock-grid.tsx afterLoading): its level and free space, its low state as
// the server judges it, and the goods' stock in every lane holding them.
import { describe, expect, it } from "vitest";
import { afterLoading } from "../../src/extensions/restock-grid/restock-grid.tsx";
import type { MachineReplenishmentCheckAnswer } from "../../src/generated/types.ts";

type Lane = MachineReplenishmentCheckAnswer["lanes"][number];
const lane = (over: Partial<Lane>): Lane => ({
  channel_id: 1,
  channel_number: 1,
  goods_id: 7,
  goods_name: "Pepsi 330ml can",
  pic_url: null,
  left: 2,
  count: 12,
  free: 10,
  shelf_status: 1,
  stock: 30,
  low: true,
  ...over,
});
const answer: MachineReplenishmentCheckAnswer = {
  machine_id: 12,
  mac_name: "VM-PP-0012",
  stock_alert_quantity: 3,
  lanes: [
    lane({}),
    lane({ channel_id: 2, channel_number: 2, left: 11, free: 1, low: false }),
    lane({
      channel_id: 3,
      channel_number: 3,
      goods_id: 8,
      goods_name: "Vitamilk",
      stock: 5,
      left: 4,
      free: 8,
      low: false,
    }),
  ],
};

describe("a lane restocked", () => {
  it("has its new level, free space and low state; the goods' stock falls in every lane holding them", () => {
    const after = afterLoading(answer, 1, 1);
    expect(after.lanes[0]).toMatchObject({ left: 3, free: 9, low: true, stock: 29 });
    expect(after.lanes[1]).toMatchObject({ left: 11, free: 1, low: false, stock: 29 });
    expect(after.lanes[2]).toMatchObject({ left: 4, free: 8, stock: 5 });
    expect(afterLoading(answer, 1, 10).lanes[0]).toMatchObject({ left: 12, free: 0, low: false, stock: 20 });
  });

  it("leaves the lanes as they were for a lane it does not know, and the answer it was given untouched", () => {
    expect(afterLoading(answer, 99, 4)).toBe(answer);
    afterLoading(answer, 1, 4);
    expect(answer.lanes[0]).toMatchObject({ left: 2, free: 10, stock: 30 });
  });
});
