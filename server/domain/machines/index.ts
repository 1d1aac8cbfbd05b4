// Device calls beyond CRUD: binding (binding.ts), restocking (restock.ts), settings (settings.ts),
// operators' bindings and shares (operators.ts), QR codes (qrcode.ts), and the device figures. Devices
// are imported by the generic engine (x-import of schemas/machine.json, server/domain/imports/).
// A device's takings, status and stock state are its live view's (server/db/live.ts): one definition
// for the list, the detail, machine-statistics, statistics-machine and the home screen.
import { sqlOf } from "../../entities/context.ts";
import { detail, listRecords } from "../../entities/engine.ts";
import { modelOf } from "../../model/model.ts";
import { defineArea } from "../area.ts";
import { bindingHandlers } from "./binding.ts";
import { operatorHandlers, operatorHooks } from "./operators.ts";
import { qrcodeHandlers } from "./qrcode.ts";
import { restockHandlers } from "./restock.ts";
import { settingsHandlers, settingsHooks } from "./settings.ts";
import * as store from "./machine-store.ts";

export const machines = defineArea({
  name: "machines",
  hooks: {
    ...settingsHooks,
    ...operatorHooks,
    machine: {
      async beforeBulk(ctx, op, ids) {
        if (op === "destroy") await store.dropLanes(ctx.tx, ids);
      },
    },
  },
  handlers: {
    ...bindingHandlers,
    ...restockHandlers,
    ...settingsHandlers,
    ...operatorHandlers,
    ...qrcodeHandlers,

    /** The device list (its paging, sort and filters) with each device's takings. */
    "machine-statistics": ({ ctx, list }) => listRecords(ctx, modelOf("machine"), list, false),

    /** One device's figures, and its takings by business day over the last `days` days, oldest first. */
    async "statistics-machine"({ ctx, input }) {
      const machine = await detail(ctx, modelOf("machine"), input.id);
      const days = input.days ?? 30;
      return {
        machine_id: input.id,
        day_money: Number(machine.day_money),
        week_money: Number(machine.week_money),
        month_money: Number(machine.month_money),
        total_money: Number(machine.total_money),
        total_number: Number(machine.total_number),
        trend: await store.takingsByDay(sqlOf(ctx), input.id, days),
      };
    },
  },
});
