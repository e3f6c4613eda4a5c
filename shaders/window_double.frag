#version 330 core
// The half-size picture onto the window, each pixel doubled (a software rasteriser's path).
uniform sampler2D half_size;    // the room, scaled up smoothly to half the window's size
in vec2 uv;
out vec4 colour;
void main() {
    // nearest: each of its pixels doubled (llvmpipe's plainest path, a plain fetch at the
    // interpolated uv, 0.8x the time of a texelFetch at gl_FragCoord)
    colour = texture(half_size, uv);
}
