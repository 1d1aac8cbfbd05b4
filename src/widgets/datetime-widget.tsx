// A date and time typed on the business's clock (src/crud/time-zone.ts), as lists and details show times:
// in Asia/Bangkok a 09:00 picked in a browser set to Los Angeles is 09:00 in Bangkok. rjsf's own widget
// reads and writes the browser's clock. Where the zones differ, the zone is named beside the input.
import type { WidgetProps } from "@rjsf/utils";
import { DatePicker, Space, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { fromWallClock, toWallClock, useTimeZone, zoneNote } from "../crud/time-zone.ts";

export function DateTimeWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder }: WidgetProps) {
  const zone = useTimeZone();
  const note = zoneNote(typeof value === "string" ? new Date(value) : new Date(), zone);
  return (
    <Space.Compact block>
      <DatePicker
        id={id}
        showTime
        disabled={disabled || readonly}
        placeholder={placeholder}
        style={{ width: "100%" }}
        value={typeof value === "string" && value ? toWallClock(value, zone) : null}
        onChange={(reading: Dayjs | null) => onChange(reading ? fromWallClock(reading, zone) : undefined)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        getPopupContainer={(node) => node.parentElement ?? document.body}
      />
      {note && (
        <Typography.Text type="secondary" className="input-zone">
          {note}
        </Typography.Text>
      )}
    </Space.Compact>
  );
}
