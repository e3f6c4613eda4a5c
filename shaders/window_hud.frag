#version 330 core
// The HUD's texture, blended over the room.
uniform sampler2D overlay;
in vec2 uv;
out vec4 colour;
void main() {
    colour = texture(overlay, uv);
}
