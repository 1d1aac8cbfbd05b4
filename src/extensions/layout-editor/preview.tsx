// A module as the customer's phone shows it, roughly: shapes in the layout's proportions, not real data.
import type { LayoutModule } from "./layout.ts";

const ratioPadding = (ratio: string) => {
  const [w, h] = ratio.split(":").map(Number);
  return `${(h / w) * 100}%`;
};

export function ModulePreview({ module, label }: { module: LayoutModule; label: string }) {
  switch (module.type) {
    case "banner":
      return (
        <div className="pv-banner" style={{ paddingTop: ratioPadding("4:3") }} aria-label={label}>
          <span className="pv-dots">{"• ".repeat(module.count).trim()}</span>
        </div>
      );
    case "grid":
      return (
        <div className={`pv-grid pv-${module.style}`} style={{ gridTemplateColumns: `repeat(${module.columns}, 1fr)` }}>
          {module.items.map((cell, i) => (
            <div key={i} className="pv-cell" style={{ paddingTop: ratioPadding(module.ratio) }}>
              {cell.image && <img src={cell.image} alt="" />}
            </div>
          ))}
        </div>
      );
    case "goods":
      return (
        <div className="pv-goods" style={{ gridTemplateColumns: `repeat(${module.columns}, 1fr)` }}>
          {Array.from({ length: module.columns * 2 }, (_, i) => (
            <div key={i} className="pv-product">
              <div className="pv-photo" />
              {module.showPrice && <div className="pv-price" />}
            </div>
          ))}
        </div>
      );
    case "notice":
      return (
        <div className="pv-notice" style={{ color: module.color }}>
          📢 {label}
        </div>
      );
    case "image":
      return <div className="pv-image">{module.image ? <img src={module.image} alt="" /> : label}</div>;
    case "spacer":
      return <div style={{ height: module.height / 2 }} />;
  }
}
