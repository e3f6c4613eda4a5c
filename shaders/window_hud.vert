#version 330 core
// The HUD: each rectangle (the pictures shown under it, then its own drawing's) a part of the
// one texture that holds them all, drawn in one go.
uniform vec2 size;          // the window's, in pixels
in vec2 corner;             // a rectangle's corner, in window pixels, rows top first
in vec2 source;             // the same corner in the texture (0 to 1), rows top first
out vec2 uv;
void main() {
    uv = source;            // the texture holds pygame's rows as they are
    vec2 at = corner / size;
    gl_Position = vec4(at.x * 2.0 - 1.0, 1.0 - at.y * 2.0, 0.0, 1.0);
}
