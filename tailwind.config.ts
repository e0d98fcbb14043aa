import type { Config } from "tailwindcss";
import forms from "@tailwindcss/forms";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        paper: { DEFAULT: "#f7f4ee", raised: "#fffdf9", sunk: "#efeae1" },
        ink: { DEFAULT: "#161513", soft: "#3d3a35", muted: "#5c574f", faint: "#6e6960" },
        line: { DEFAULT: "#e2dccf", strong: "#cfc7b6" },
        accent: { DEFAULT: "#b4421a", hover: "#963613", soft: "#f6e4da", ink: "#7a2c0f" },
        shop: { DEFAULT: "#047857", hover: "#065f46", soft: "#e3f3ec", ink: "#064e3b" },
        danger: { DEFAULT: "#b91c1c", soft: "#fdecec" },
      },
      fontFamily: {
        sans: ["Inter", "Inter Fallback", "ui-sans-serif", "system-ui", "sans-serif"],
        display: ["Fraunces", "Fraunces Fallback", "ui-serif", "Georgia", "serif"],
      },
      maxWidth: { content: "76rem", prose: "42rem" },
      borderRadius: { card: "1.25rem", field: "0.75rem" },
      boxShadow: {
        raised: "0 1px 2px rgba(22,21,19,0.04), 0 8px 24px -12px rgba(22,21,19,0.18)",
        lift: "0 2px 4px rgba(22,21,19,0.05), 0 24px 48px -24px rgba(22,21,19,0.28)",
      },
      transitionDuration: { 250: "250ms", 300: "300ms", 600: "600ms" },
      keyframes: {
        fadein: { from: { opacity: "0" }, to: { opacity: "1" } },
        slidein: {
          from: { opacity: "0", transform: "translateX(var(--slide-from, 24px))" },
          to: { opacity: "1", transform: "none" },
        },
      },
      animation: {
        fadein: "fadein 0.25s ease-out both",
        slidein: "slidein 0.3s ease-out both",
      },
    },
  },
  plugins: [forms],
} satisfies Config;
