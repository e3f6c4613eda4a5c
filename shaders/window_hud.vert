#version 330 core
// The HUD's rectangles, in window pixels, rows top first (pygame's order).
uniform vec2 size;          // the window's, in pixels
uniform vec4 place;         // where the texture lies: x, y, width, height, in window pixels
in vec2 corner;             // a rectangle's corner, in pixels, rows top first
out vec2 uv;
void main() {
    uv = (corner - place.xy) / place.zw;  // the texture holds pygame's rows as they are
    vec2 at = corner / size;
    gl_Position = vec4(at.x * 2.0 - 1.0, 1.0 - at.y * 2.0, 0.0, 1.0);
}
