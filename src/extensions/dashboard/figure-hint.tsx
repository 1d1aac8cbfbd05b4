// What a figure counts, behind a question mark beside its name: shown on hover or focus with a mouse, on a
// tap on a touch screen (where a tap's emulated hover would open it and its click close it again).
import { QuestionCircleOutlined } from "@ant-design/icons";
import { Tooltip } from "antd";
import { useTouch } from "../../app/theme.ts";

export function FigureHint({ hint }: { hint: string }) {
  const touch = useTouch();
  return (
    <Tooltip title={hint} trigger={touch ? ["click"] : ["hover", "focus"]}>
      <button type="button" className="figure-hint" aria-label={hint}>
        <QuestionCircleOutlined />
      </button>
    </Tooltip>
  );
}
