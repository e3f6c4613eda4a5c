#version 330 core
// The HUD's rectangles, in window pixels, rows top first (pygame's order).
uniform vec2 size;          // the window's, in pixels
in vec2 corner;             // a rectangle's corner, in pixels, rows top first
out vec2 uv;
void main() {
    uv = corner / size;     // the overlay's texture holds pygame's rows as they are
    gl_Position = vec4(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
}
